//! Which scalar styles a value may take: libyaml's `yaml_emitter_analyze_scalar`.

use super::chars::{is_blank, is_blankz, is_break, is_printable, is_space, width};

/// What the emitter learned about a scalar's text before choosing its style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ScalarAnalysis {
    /// Contains a line break (CR, LF, NEL, LS or PS).
    pub multiline: bool,
    /// May be written plain in block context.
    pub block_plain_allowed: bool,
    /// May be written single-quoted.
    pub single_quoted_allowed: bool,
    /// May be written as a `|` / `>` block scalar.
    pub block_allowed: bool,
}

impl ScalarAnalysis {
    pub(super) fn of(text: &str) -> Self {
        let value = text.as_bytes();
        if value.is_empty() {
            return Self {
                multiline: false,
                block_plain_allowed: true,
                single_quoted_allowed: true,
                block_allowed: false,
            };
        }

        let mut block_indicators = false;
        let mut line_breaks = false;
        let mut special_characters = false;
        let mut leading_space = false;
        let mut leading_break = false;
        let mut trailing_space = false;
        let mut trailing_break = false;
        let mut break_space = false;
        let mut space_break = false;
        let mut previous_space = false;
        let mut previous_break = false;

        if value.starts_with(b"---") || value.starts_with(b"...") {
            block_indicators = true;
        }

        let mut preceded_by_whitespace = true;
        let mut i = 0;
        while i < value.len() {
            let w = width(value[i]);
            let followed_by_whitespace = i + w >= value.len() || is_blank(value, i + w);
            let c = value[i];
            if i == 0 {
                match c {
                    b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>'
                    | b'\'' | b'"' | b'%' | b'@' | b'`' => block_indicators = true,
                    b'?' | b':' | b'-' if followed_by_whitespace => block_indicators = true,
                    _ => {}
                }
            } else {
                match c {
                    b':' if followed_by_whitespace => block_indicators = true,
                    b'#' if preceded_by_whitespace => block_indicators = true,
                    _ => {}
                }
            }

            // The emitter runs with unicode output on, so only unprintable bytes are special.
            if !is_printable(value, i) {
                special_characters = true;
            }
            if is_space(value, i) {
                leading_space |= i == 0;
                trailing_space |= i + w == value.len();
                break_space |= previous_break;
                previous_space = true;
                previous_break = false;
            } else if is_break(value, i) {
                line_breaks = true;
                leading_break |= i == 0;
                trailing_break |= i + w == value.len();
                space_break |= previous_space;
                previous_space = false;
                previous_break = true;
            } else {
                previous_space = false;
                previous_break = false;
            }
            preceded_by_whitespace = is_blankz(value, i);
            i += w;
        }

        let mut analysis = Self {
            multiline: line_breaks,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: true,
        };
        if leading_space || leading_break || trailing_space || trailing_break {
            analysis.block_plain_allowed = false;
        }
        if trailing_space {
            analysis.block_allowed = false;
        }
        if break_space {
            analysis.block_plain_allowed = false;
            analysis.single_quoted_allowed = false;
        }
        if space_break || special_characters {
            analysis.block_plain_allowed = false;
            analysis.single_quoted_allowed = false;
            analysis.block_allowed = false;
        }
        if line_breaks || block_indicators {
            analysis.block_plain_allowed = false;
        }
        analysis
    }
}

#[cfg(test)]
mod tests {
    use super::ScalarAnalysis;

    fn plain_ok(s: &str) -> bool {
        ScalarAnalysis::of(s).block_plain_allowed
    }

    #[test]
    fn indicators_at_start_forbid_plain() {
        for s in [
            "#a", ",a", "[a", "]a", "{a", "}a", "&a", "*a", "!a", "|a", ">a", "'a", "\"a", "%a",
            "@a", "`a",
        ] {
            assert!(!plain_ok(s), "{s:?}");
        }
        for s in ["- a", "-", "? a", "?", ": a", ":", "---x", "...x"] {
            assert!(!plain_ok(s), "{s:?}");
        }
        for s in [
            "-a", "?a", ":a", "a-", "a?", "a,b", "a[b]", "a{b}", "a#b", "a!", "--x",
        ] {
            assert!(plain_ok(s), "{s:?}");
        }
    }

    #[test]
    fn colon_space_and_space_hash_forbid_plain() {
        assert!(!plain_ok("a: b"));
        assert!(!plain_ok("a:"));
        assert!(!plain_ok("a #b"));
        assert!(plain_ok("a:b"));
        assert!(plain_ok("http://x"));
    }

    #[test]
    fn spaces_and_breaks() {
        assert!(!plain_ok(" a"));
        assert!(!plain_ok("a "));
        let trailing = ScalarAnalysis::of("a\nb ");
        assert!(!trailing.block_allowed && trailing.single_quoted_allowed && trailing.multiline);
        let space_break = ScalarAnalysis::of("a \nb");
        assert!(!space_break.block_allowed && !space_break.single_quoted_allowed);
        let break_space = ScalarAnalysis::of("a\n b");
        assert!(break_space.block_allowed && !break_space.single_quoted_allowed);
        let tab = ScalarAnalysis::of("a\tb");
        assert!(!tab.block_plain_allowed && !tab.single_quoted_allowed && !tab.block_allowed);
    }

    #[test]
    fn empty_value() {
        let empty = ScalarAnalysis::of("");
        assert!(empty.block_plain_allowed && empty.single_quoted_allowed && !empty.block_allowed);
    }
}
