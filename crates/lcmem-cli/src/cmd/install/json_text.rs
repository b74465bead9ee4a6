//! A JSON file edited as text: where each value is, so that lcmem's entries
//! go in and come out without touching a byte of the user's (their key
//! order, number spelling, spacing, line ends stay as written).
//!
//! Decisions are made on a `serde_json::Value` read from the text; edits are
//! made by path on the text itself, which is parsed again after each one.

use serde_json::Value;

/// Where a value is in the text, and where its children are.
struct Node {
    start: usize,
    end: usize,
    /// Each child's start (a member's key, an element's value) and the node.
    children: Vec<(usize, Option<String>, Node)>,
}

impl Node {
    fn child(&self, seg: &Seg) -> Option<(usize, &Node)> {
        match seg {
            Seg::Key(key) => self.children.iter().rposition(|(_, k, _)| k.as_deref() == Some(key.as_str())),
            Seg::Index(i) => (*i < self.children.len()).then_some(*i),
        }
        .map(|i| (i, &self.children[i].2))
    }
}

/// One step of a path into the document.
#[derive(Clone, Debug)]
pub enum Seg {
    Key(String),
    Index(usize),
}

pub fn key(key: &str) -> Seg {
    Seg::Key(key.to_string())
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn byte(&self) -> u8 {
        self.text.as_bytes().get(self.at).copied().unwrap_or(0)
    }

    fn skip_space(&mut self) {
        while matches!(self.byte(), b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }

    fn string_end(&mut self) {
        self.at += 1;
        while self.at < self.text.len() {
            match self.byte() {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return;
                }
                _ => self.at += 1,
            }
        }
    }

    /// One value at `self.at` (the text is valid JSON: serde_json said so).
    fn value(&mut self) -> Node {
        let start = self.at;
        let mut children = Vec::new();
        match self.byte() {
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.at += 1;
                self.skip_space();
                while self.byte() != close && self.at < self.text.len() {
                    let child_start = self.at;
                    let mut name = None;
                    if open == b'{' {
                        self.string_end();
                        name = serde_json::from_str::<String>(&self.text[child_start..self.at]).ok();
                        self.skip_space();
                        self.at += 1; // the colon
                        self.skip_space();
                    }
                    children.push((child_start, name, self.value()));
                    self.skip_space();
                    if self.byte() == b',' {
                        self.at += 1;
                        self.skip_space();
                    }
                }
                self.at += 1;
            }
            b'"' => self.string_end(),
            _ => {
                while !matches!(self.byte(), b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | 0) {
                    self.at += 1;
                }
            }
        }
        Node { start, end: self.at, children }
    }
}

/// A JSON document's text, and how its author lays it out.
pub struct Doc {
    pub text: String,
    unit: String,
    newline: &'static str,
}

impl Doc {
    /// `text` must be valid JSON (an object); blank text is a new file.
    pub fn new(text: &str) -> Doc {
        let unit = text
            .lines()
            .skip(1)
            .find(|l| l.starts_with([' ', '\t']))
            .map(|line| line[..line.len() - line.trim_start_matches([' ', '\t']).len()].to_string())
            .unwrap_or_else(|| "  ".into());
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let text = if text.trim().is_empty() { format!("{{{newline}}}{newline}") } else { text.to_string() };
        Doc { text, unit, newline }
    }

    fn root(&self) -> Node {
        let mut parser = Parser { text: &self.text, at: 0 };
        parser.skip_space();
        parser.value()
    }

    /// The document as a value, to decide what to change.
    pub fn value(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    fn node<'a>(root: &'a Node, path: &[Seg]) -> Option<&'a Node> {
        path.iter().try_fold(root, |node, seg| node.child(seg).map(|(_, n)| n))
    }

    fn indent_of(&self, at: usize) -> &str {
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.text[line_start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    /// Adds `value` to the object or array at `path`, under `name` in an
    /// object: after the last child, laid out as its siblings are.
    pub fn add(&mut self, path: &[Seg], name: Option<&str>, value: &Value) {
        let root = self.root();
        let Some(container) = Self::node(&root, path) else { return };
        let head = name.map(|n| format!("{}: ", Value::String(n.into()))).unwrap_or_default();
        let outer = self.indent_of(container.start).to_string();
        let (at, end, text) = match container.children.last() {
            None if path.is_empty() || self.text.trim().contains('\n') => {
                let inner = format!("{outer}{}", self.unit);
                let body = format!("{head}{}", self.render(value, Some(&inner)));
                (container.start + 1, container.end - 1, format!("{nl}{inner}{body}{nl}{outer}", nl = self.newline))
            }
            None => (container.start + 1, container.end - 1, format!("{head}{}", self.render(value, None))),
            Some((_, _, last)) => {
                let first = container.children[0].0;
                if self.text[container.start..first].contains('\n') {
                    let before_last = &self.text[..container.children.last().map_or(0, |c| c.0)];
                    let inner = match before_last.rsplit('\n').next() {
                        Some(lead) if lead.trim().is_empty() => lead.to_string(),
                        _ => format!("{outer}{}", self.unit),
                    };
                    let body = format!("{head}{}", self.render(value, Some(&inner)));
                    (last.end, last.end, format!(",{}{inner}{body}", self.newline))
                } else {
                    (last.end, last.end, format!(", {head}{}", self.render(value, None)))
                }
            }
        };
        self.text.replace_range(at..end, &text);
    }

    /// Replaces the value at `path`.
    pub fn set(&mut self, path: &[Seg], value: &Value) {
        let root = self.root();
        if let Some(node) = Self::node(&root, path) {
            let (start, end) = (node.start, node.end);
            self.text.replace_range(start..end, &self.render(value, None));
        }
    }

    /// Takes the member or element at `path` out, with the separator that
    /// joined it to its neighbour: the inverse of [`Doc::add`].
    pub fn remove(&mut self, path: &[Seg]) {
        let Some((last, parent_path)) = path.split_last() else { return };
        let root = self.root();
        let Some(parent) = Self::node(&root, parent_path) else { return };
        let Some((i, node)) = parent.child(last) else { return };
        let kids = &parent.children;
        let range = if kids.len() == 1 {
            parent.start + 1..parent.end - 1
        } else if i > 0 {
            kids[i - 1].2.end..node.end
        } else {
            kids[0].0..kids[1].0
        };
        self.text.replace_range(range, "");
    }

    /// `value` as JSON: over lines indented from `indent`, or on one line.
    fn render(&self, value: &Value, indent: Option<&str>) -> String {
        let Some(indent) = indent else {
            return match value {
                Value::Object(map) if !map.is_empty() => {
                    let items: Vec<String> = map
                        .iter()
                        .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), self.render(v, None)))
                        .collect();
                    format!("{{{}}}", items.join(", "))
                }
                Value::Array(items) if !items.is_empty() => {
                    let items: Vec<String> = items.iter().map(|v| self.render(v, None)).collect();
                    format!("[{}]", items.join(", "))
                }
                _ => value.to_string(),
            };
        };
        let inner = format!("{indent}{}", self.unit);
        let (open, close, items): (_, _, Vec<String>) = match value {
            Value::Object(map) if !map.is_empty() => (
                '{',
                '}',
                map.iter()
                    .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), self.render(v, Some(&inner))))
                    .collect(),
            ),
            Value::Array(items) if !items.is_empty() => {
                ('[', ']', items.iter().map(|v| self.render(v, Some(&inner))).collect())
            }
            _ => return value.to_string(),
        };
        let nl = self.newline;
        let body: Vec<String> = items.iter().map(|item| format!("{inner}{item}")).collect();
        format!("{open}{nl}{}{nl}{indent}{close}", body.join(&format!(",{nl}")))
    }
}

/// The text's tokens with the space between them left out: two texts with
/// the same tokens differ only in layout.
pub fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut parser = Parser { text, at: 0 };
    loop {
        parser.skip_space();
        let start = parser.at;
        match parser.byte() {
            0 => return out,
            b'{' | b'}' | b'[' | b']' | b',' | b':' => parser.at += 1,
            b'"' => parser.string_end(),
            _ => {
                parser.value();
            }
        }
        out.push(&text[start..parser.at.min(text.len())]);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Doc, key, tokens};

    #[test]
    fn add_then_remove_gives_back_the_text() {
        for text in ["{\n  \"a\": 1e3,\n  \"b\": {}\n}", "{\"b\":{},\"z\":[ ]}", "{\r\n\t\"b\": {\"x\": 1}\r\n}\r\n"] {
            let mut doc = Doc::new(text);
            doc.add(&[key("b")], Some("lcmem"), &json!({"command": "lcmem", "args": ["mcp"]}));
            doc.add(&[], Some("hooks"), &json!({"Stop": [{"hooks": []}]}));
            assert!(doc.value()["b"]["lcmem"]["args"][0] == "mcp", "{}", doc.text);
            doc.remove(&[key("hooks")]);
            doc.remove(&[key("b"), key("lcmem")]);
            assert_eq!(doc.text, text);
            assert_eq!(tokens(&doc.text), tokens(text));
        }
    }
}
