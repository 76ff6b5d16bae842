//! libyaml's byte-level character classes, as go-yaml v2 applies them to UTF-8 text.
//!
//! They look at raw bytes (not `char`s) because the emitter's decisions depend on exactly these
//! byte tests, quirks included: every 4-byte UTF-8 sequence (U+10000 and above) counts as
//! non-printable, and a value starting with a BOM has all of its characters escaped.
//! Reads past the end see a NUL byte, like libyaml's NUL-terminated buffers.

/// The byte at `i`, or NUL past the end.
pub(super) fn byte_at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// Length in bytes of the UTF-8 sequence whose lead byte is `lead`.
pub(super) fn width(lead: u8) -> usize {
    if lead & 0x80 == 0x00 {
        1
    } else if lead & 0xE0 == 0xC0 {
        2
    } else if lead & 0xF0 == 0xE0 {
        3
    } else if lead & 0xF8 == 0xF0 {
        4
    } else {
        // Continuation bytes never start a character in valid UTF-8 (`&str`).
        1
    }
}

pub(super) fn is_printable(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (byte_at(b, i), byte_at(b, i + 1), byte_at(b, i + 2));
    c0 == 0x0A
        || (0x20..=0x7E).contains(&c0)
        || (c0 == 0xC2 && c1 >= 0xA0)
        || (c0 > 0xC2 && c0 < 0xED)
        || (c0 == 0xED && c1 < 0xA0)
        || c0 == 0xEE
        || (c0 == 0xEF
            && !(c1 == 0xBB && c2 == 0xBF)
            && !(c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)))
}

/// libyaml's `is_bom` ignores its index: it asks whether the whole value starts with a BOM.
pub(super) fn starts_with_bom(b: &[u8]) -> bool {
    b.starts_with(&[0xEF, 0xBB, 0xBF])
}

pub(super) fn is_space(b: &[u8], i: usize) -> bool {
    byte_at(b, i) == b' '
}

pub(super) fn is_blank(b: &[u8], i: usize) -> bool {
    matches!(byte_at(b, i), b' ' | b'\t')
}

/// CR, LF, NEL (U+0085), LS (U+2028), PS (U+2029).
pub(super) fn is_break(b: &[u8], i: usize) -> bool {
    let (c0, c1, c2) = (byte_at(b, i), byte_at(b, i + 1), byte_at(b, i + 2));
    c0 == b'\r'
        || c0 == b'\n'
        || (c0 == 0xC2 && c1 == 0x85)
        || (c0 == 0xE2 && c1 == 0x80 && (c2 == 0xA8 || c2 == 0xA9))
}

/// Blank, break, or NUL.
pub(super) fn is_blankz(b: &[u8], i: usize) -> bool {
    is_blank(b, i) || is_break(b, i) || byte_at(b, i) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_follows_libyaml_ranges() {
        assert!(is_printable(b"a", 0));
        assert!(is_printable(b"\n", 0));
        assert!(!is_printable(b"\t", 0));
        assert!(!is_printable(b"\x7f", 0));
        assert!(!is_printable("\u{85}".as_bytes(), 0));
        assert!(is_printable("\u{a0}".as_bytes(), 0));
        assert!(is_printable("é".as_bytes(), 0));
        assert!(is_printable("\u{2028}".as_bytes(), 0));
        assert!(is_printable("\u{e000}".as_bytes(), 0));
        assert!(!is_printable("\u{feff}".as_bytes(), 0));
        assert!(!is_printable("\u{fffe}".as_bytes(), 0));
        // go-yaml v2 treats every 4-byte sequence as unprintable.
        assert!(!is_printable("😀".as_bytes(), 0));
    }

    #[test]
    fn breaks_include_unicode_separators() {
        for s in ["\r", "\n", "\u{85}", "\u{2028}", "\u{2029}"] {
            assert!(is_break(s.as_bytes(), 0), "{s:?}");
        }
        assert!(!is_break(" ".as_bytes(), 0));
        assert!(is_blankz(b"", 0));
    }

    #[test]
    fn width_of_lead_bytes() {
        assert_eq!(width(b'a'), 1);
        assert_eq!(width("é".as_bytes()[0]), 2);
        assert_eq!(width("€".as_bytes()[0]), 3);
        assert_eq!(width("😀".as_bytes()[0]), 4);
    }
}
