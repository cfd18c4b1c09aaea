//! The protocols: Hub ([`hub`], the line protocol of GUIs and pydraughts on stdin and
//! stdout) and DXP ([`dxp`], the TCP protocol between programs), and the engine command lines
//! that start a program speaking them ([`command_line`]).

pub mod command_line;
pub mod dxp;
pub mod hub;
