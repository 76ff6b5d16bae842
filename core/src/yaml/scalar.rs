//! Scalars: the style yaml.v2's encoder asks for and the style libyaml settles on (the writers
//! of each style are in `styles`).

use super::analysis::ScalarAnalysis;
use super::resolve::plain_keeps_string_type;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

pub(super) struct Scalar {
    pub(super) text: String,
    requested: Style,
    pub(super) analysis: ScalarAnalysis,
}

impl Scalar {
    /// Numbers, booleans and null: always requested plain.
    pub(super) fn plain(text: String) -> Self {
        let analysis = ScalarAnalysis::of(&text);
        Scalar {
            text,
            requested: Style::Plain,
            analysis,
        }
    }

    /// yaml.v2's `stringv`: a literal block for multi-line text, plain when the text would read
    /// back as a string, double-quoted otherwise.
    pub(super) fn for_string(text: &str) -> Self {
        let requested = if text.contains('\n') {
            Style::Literal
        } else if plain_keeps_string_type(text) {
            Style::Plain
        } else {
            Style::DoubleQuoted
        };
        Scalar {
            text: text.to_owned(),
            requested,
            analysis: ScalarAnalysis::of(text),
        }
    }

    /// libyaml's `yaml_emitter_select_scalar_style` in block context.
    pub(super) fn select_style(&self, simple_key: bool) -> Style {
        let a = &self.analysis;
        let mut style = self.requested;
        if simple_key && a.multiline {
            style = Style::DoubleQuoted;
        }
        if style == Style::Plain && (!a.block_plain_allowed || (self.text.is_empty() && simple_key))
        {
            style = Style::SingleQuoted;
        }
        if style == Style::SingleQuoted && !a.single_quoted_allowed {
            style = Style::DoubleQuoted;
        }
        if style == Style::Literal && (!a.block_allowed || simple_key) {
            style = Style::DoubleQuoted;
        }
        style
    }
}
