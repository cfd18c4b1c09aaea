//! The Turkish positions of `damka bench` (the `Bench:` signature of search and evaluation
//! commits): change them only on purpose.

/// Default bench depth (a wide tree).
pub const DEPTH: u32 = 8;

/// Bench positions: openings, middle games, endings.
pub const POSITIONS: &[&str] = &[
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e5,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a4,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h5,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,f2,g2,h2,a3,b3,d4,e4,g3,h3:Ba6,b6,c6,f6,g6,h6,a7,b7,d5,e5,g7,h7",
    "B:Wa2,c2,e2,g2,b3,d3,f3,h3,c4,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,c5,g5",
    "W:Wb2,c2,d2,e2,f2,g2,a4,b4,c4,f4,g4:Bb6,c6,d6,e6,f6,a7,b7,g7,h5,c5",
    "B:Wa3,b3,c3,d3,e3,f3,g3,h3,d2,e2:Ba6,b6,c6,d6,e6,f6,g6,h6,d7,e7",
    "W:Wa3,c3,e3,g3,b4,d4,f4,h4:Ba6,c6,e6,g6,b5,d5,f5,h5",
    "B:Wb2,c2,f2,g2,c3,d3,e3,f3,d4,e4:Bc7,d7,e7,f7,c6,d6,e6,f6,d5,e5",
    "W:Wa2,h2,b3,g3,c4,f4,d5:Bb7,g7,c6,f6,e6,a6,h6",
    "W:WKd1,a3,h3:Be6,f7,g6",
    "W:WKa1,Kh1:BKd8",
    "B:Wd2,e3,f4:Bc6,d7",
    "W:Wb5,c4,g3:Ba7,h7,d6",
    "W:WKe4:Ba7,h7",
    "B:WKa8,b5:BKh1,g4",
    "W:Wa2,b2,c2:Bf7,g7,h7",
    "W:Wd6,e5:Bd2,Ka8",
    "W:WKc3,d4,e4,f4:BKf8,a6,b6,c6",
    "B:Wa5,b5,c5:Ba7,b7,c7",
    "W:We2,f2,g2,h2,e3,f3:Ba7,b7,c7,d7,a6,b6",
];
