//! The Hub protocol (`../shared/protocol/hub.md`), generic over reader and writer.
//! PLACEHOLDER: written by the Hub issue.
