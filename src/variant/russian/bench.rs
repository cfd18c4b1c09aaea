//! The Russian positions of `damka bench` (the `Bench:` signature of search and evaluation
//! commits): change them only on purpose.

/// Default bench depth (a narrow tree).
pub const DEPTH: u32 = 11;

/// Bench positions: openings, middle games, endings.
pub const POSITIONS: &[&str] = &[
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,d4,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,d4,e3,g3:Bb6,d6,g5,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,b4,e3,g3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,h4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,f4,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,b2,f2,c3,e3,g3,d4,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,f8",
    "B:Wc1,e1,b2,d2,f2,a3,c3,g3,b4,f4,h4:Ba5,c5,e5,b6,f6,h6,a7,e7,g7,d8",
    "W:Wa1,e1,g1,b2,d2,h2,c3,e3,g3,d4,h4:Bb6,f6,h6,c7,e7,g7,d8,f8,c5,e5",
    "B:Wc1,e1,b2,d2,f2,h2,c3,e3,g3,f4:Bb6,d6,h6,a7,c7,e7,g7,b8,f8,g5",
    "W:Wc1,e1,d2,f2,c3,e3,g3,b4,d4:Bb6,d6,f6,a7,c7,e7,b8,h6,g5",
    "B:Wa1,c1,b2,f2,h2,c3,g3,d4,f4,h4:Bb6,f6,h6,a7,c7,g7,b8,d8,e5",
    "W:Wc1,e1,g1,d2,h2,a3,e3,b4,f4:Ba5,d6,f6,h6,c7,e7,g7,d8",
    "W:We1,g1,d2,f2,c3,e3,h4,b4:Bb6,d6,c7,e7,f8,h6,a5",
    "W:WKa1,c3,e3:Bh8,f6",
    "W:WKc1,Ke1,Kg1:BKh8",
    "W:Wc3,e3,g3:Bd6,f6,h6",
    "B:Wa3,c3,f4:Bb6,e7,h6",
    "W:WKd4,e3:BKa7,c7",
    "W:Wb4,d4,f4,h4:Ba7,c7,e7,g7",
    "B:WKh2,c3:Bb6,d6,Kf8",
    "W:Wg3,e1:Bc7,a7,Kh8",
    "W:WKa1:Bh6,f6",
    "B:WKb2,Kh6:BKa7,c5",
];
