//! Perft: counting the leaves of the move tree, generic over the game.
//! PLACEHOLDER: written by the Russian core issue.
