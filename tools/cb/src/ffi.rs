//! What every export needs at the C boundary: a guard so no panic crosses it, and bounded
//! reading and writing of C strings the host owns.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`; if it panics, returns `fallback` instead. A panic must never unwind into the
/// host GUI (that would be undefined behaviour, or an abort that takes the GUI down).
pub fn guard<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}

/// Reads a NUL-terminated string of at most `max` bytes (the rest is ignored), lossily as
/// UTF-8 (the GUIs send ASCII); `None` for a NULL pointer.
///
/// # Safety
/// `p` is NULL or points to memory readable up to its NUL or `max` bytes, whichever is first.
pub unsafe fn read_cstr(p: *const c_char, max: usize) -> Option<String> {
    if p.is_null() {
        return None;
    }
    let mut bytes = Vec::new();
    for i in 0..max {
        // SAFETY: the caller promises readability up to the NUL or `max` bytes; we stop at
        // the first NUL.
        let b = unsafe { *p.add(i) } as u8;
        if b == 0 {
            break;
        }
        bytes.push(b);
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Writes `s` as a NUL-terminated string into a buffer of `cap` bytes, cut to fit. Does
/// nothing for a NULL pointer or a zero capacity.
///
/// # Safety
/// `dst` is NULL or points to `cap` writable bytes.
pub unsafe fn write_cstr(dst: *mut c_char, cap: usize, s: &str) {
    if dst.is_null() || cap == 0 {
        return;
    }
    let bytes = s.as_bytes();
    let n = bytes.len().min(cap - 1);
    for (i, &b) in bytes[..n].iter().enumerate() {
        // SAFETY: i < n < cap, inside the caller's buffer.
        unsafe { *dst.add(i) = b as c_char };
    }
    // SAFETY: n < cap.
    unsafe { *dst.add(n) = 0 };
}

/// A string with a NUL at the end and none inside (the GUIs get pointers to these).
pub fn c_text(s: &str) -> Vec<u8> {
    let mut v: Vec<u8> = s.bytes().filter(|&b| b != 0).collect();
    v.push(0);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_bounded() {
        let mut buf = [1 as c_char; 4];
        // SAFETY: buf has 4 bytes.
        unsafe { write_cstr(buf.as_mut_ptr(), 4, "hello") };
        // SAFETY: buf is NUL-terminated within 4 bytes.
        assert_eq!(
            unsafe { read_cstr(buf.as_ptr(), 4) }.as_deref(),
            Some("hel")
        );
        // SAFETY: NULL is allowed.
        assert_eq!(unsafe { read_cstr(std::ptr::null(), 4) }, None);
        assert_eq!(guard(7, || panic!("no")), 7);
    }
}
