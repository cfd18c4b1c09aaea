//! Search: iterative deepening PVS with capture resolution, transposition table, time
//! management and Lazy SMP threads. Generic over the game; never names one.
//! PLACEHOLDER: written by the search issue.
