//! Doc comments as CRD descriptions, by controller-gen's rules (`pkg/markers/zip.go`
//! `extractDoc` over Go's `CommentGroup.Text`): line breaks kept, blank runs folded to one,
//! `TODO` lines dropped and everything from a `---` line cut, except inside fenced code blocks.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The description the doc comments of an item give, if any.
pub fn description(attrs: &[Attribute]) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    for attr in attrs {
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        if !nv.path.is_ident("doc") {
            continue;
        }
        let Expr::Lit(ExprLit {
            lit: Lit::Str(text),
            ..
        }) = &nv.value
        else {
            continue;
        };
        let text = text.value();
        // A `/** ... */` block keeps its indentation; Go trims such lines.
        let block = text.contains('\n');
        for line in text.split('\n') {
            let line = if block {
                line.trim()
            } else {
                line.strip_prefix(' ').unwrap_or(line)
            };
            lines.push(line.trim_end().to_owned());
        }
    }
    from_lines(&lines)
}

/// The description a doc comment whose text is `text` gives (`#[resource(doc = "...")]` stands
/// for the root type's doc comment, so the same rules apply).
pub fn from_text(text: &str) -> Option<String> {
    let lines: Vec<String> = text.split('\n').map(|l| l.trim_end().to_owned()).collect();
    from_lines(&lines)
}

/// controller-gen's description of doc `lines` (comment markers already removed).
pub fn from_lines(lines: &[String]) -> Option<String> {
    // Go's CommentGroup.Text: no leading/trailing blank lines, runs of blank lines become one.
    let mut text: Vec<&str> = Vec::new();
    for line in lines {
        if line.is_empty() && text.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        text.push(line);
    }
    while text.last().is_some_and(|l| l.is_empty()) {
        text.pop();
    }

    let mut out: Vec<&str> = Vec::new();
    let mut in_code_block = false;
    for line in text {
        if line.starts_with("```") || line.starts_with("~~~") {
            in_code_block = !in_code_block;
        }
        if !in_code_block {
            if line.starts_with("TODO") {
                continue;
            }
            if line.starts_with("---") {
                break;
            }
        }
        out.push(line);
    }
    let description = out.join("\n");
    (!description.is_empty()).then_some(description)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(source: &str) -> Option<String> {
        let item: syn::ItemStruct = syn::parse_str(&format!("{source}\nstruct S;")).unwrap();
        description(&item.attrs)
    }

    #[test]
    fn keeps_line_breaks_and_one_blank_line() {
        assert_eq!(
            doc("/// first\n/// second\n///\n///\n/// third").as_deref(),
            Some("first\nsecond\n\nthird")
        );
    }

    #[test]
    fn strips_exactly_one_space_and_trailing_blanks() {
        assert_eq!(
            doc("///   indented  \n///\n").as_deref(),
            Some("  indented")
        );
    }

    #[test]
    fn todo_lines_are_dropped_and_dashes_cut() {
        assert_eq!(
            doc("/// kept\n/// TODO: fix\n/// also kept\n/// ---\n/// gone").as_deref(),
            Some("kept\nalso kept")
        );
    }

    #[test]
    fn code_blocks_keep_todo_and_dashes() {
        assert_eq!(
            doc("/// ```\n/// TODO\n/// ---\n/// ```\n/// end").as_deref(),
            Some("```\nTODO\n---\n```\nend")
        );
    }

    #[test]
    fn block_comments_are_trimmed() {
        assert_eq!(doc("/**\n   a\n   b\n */").as_deref(), Some("a\nb"));
    }

    #[test]
    fn a_doc_text_follows_the_doc_comment_rules() {
        assert_eq!(
            from_text("kept \nTODO: drop\n\n\nalso kept\n---\ngone").as_deref(),
            Some("kept\n\nalso kept")
        );
        assert_eq!(from_text("TODO: only"), None);
    }

    #[test]
    fn no_doc_no_description() {
        assert_eq!(doc(""), None);
        assert_eq!(doc("///"), None);
    }
}
