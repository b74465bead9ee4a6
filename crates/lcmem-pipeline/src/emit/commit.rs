//! The message of a commit, read off the shell command an agent wrote.
//!
//! Agents rarely write `git commit -m "subject"` on one line. Claude Code
//! wraps nearly every message in a here-document
//! (`git commit -m "$(cat <<'EOF' … EOF)"`), Codex pipes one in
//! (`git commit -F - <<'EOF'`) or writes a file first and commits with
//! `-F FILE`. Only a command's first line is recorded, so without this the
//! message is lost and its shell wrapper is all that is left. What is kept is
//! the subject line alone: the body of a message and every other
//! here-document stay unrecorded.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// Longest subject kept, in characters.
const SUBJECT_CHARS: usize = 200;

/// How many message files the converter remembers (the newest win).
const REMEMBERED_FILES: usize = 16;

/// First lines of files the session wrote that look like commit messages
/// (`/tmp/commit-msg.txt`, `.git/COMMIT_EDITMSG`), so that a later
/// `git commit -F FILE` can be read. Only such files are remembered, and
/// only their first line: the content of other files is never kept.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct MessageFiles {
    /// Path as written → its first non-blank line, with the order written.
    files: BTreeMap<String, (u64, String)>,
    written: u64,
}

impl MessageFiles {
    /// Notes that the session wrote `content` to `path`, if the path looks
    /// like a commit message's.
    pub(crate) fn wrote(&mut self, path: &str, content: &str) {
        if !is_message_file(path) {
            return;
        }
        let Some(subject) = subject_of(content) else { return };
        self.written += 1;
        self.files.insert(path.to_string(), (self.written, subject));
        while self.files.len() > REMEMBERED_FILES {
            let oldest = self.files.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                self.files.remove(&oldest);
            }
        }
    }

    /// Notes the files a shell command writes with a here-document
    /// (`cat > /tmp/msg <<'EOF' … EOF`).
    pub(crate) fn wrote_by_shell(&mut self, command: &str) {
        for caps in REDIRECTED_HEREDOC.captures_iter(command) {
            // The regex has two alternatives (`cat > F <<T`, `cat <<T > F`),
            // each with its own pair of groups: only one pair took part.
            let (Some(path), Some(tag), Some(whole)) = (
                caps.name("path").or_else(|| caps.name("path2")),
                caps.name("tag").or_else(|| caps.name("tag2")),
                caps.get(0),
            ) else {
                continue;
            };
            let after = command.get(whole.end()..).unwrap_or("");
            if let Some(body) = heredoc_body(after, tag.as_str()) {
                self.wrote(&unquote(path.as_str()), body);
            }
        }
    }

    fn subject(&self, path: &str) -> Option<&str> {
        let path = unquote(path);
        self.files
            .get(&path)
            .or_else(|| self.files.iter().find(|(k, _)| k.ends_with(&format!("/{path}"))).map(|(_, v)| v))
            .map(|(_, s)| s.as_str())
    }
}

/// `git … commit …`: where a commit command starts.
static COMMIT: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\bgit\b(?:\s+-[cC]\s+\S+)*\s+commit\b"));

/// A here-document's opening: `<<'EOF'`, `<<"EOF"`, `<<EOF`, `<<-EOF`.
static HEREDOC: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r#"<<-?\s*(?:'(?P<q>\w+)'|"(?P<d>\w+)"|(?P<b>\w+))"#));

/// `cat > FILE <<'EOF'` (or `tee FILE`, `>` after the here-document).
static REDIRECTED_HEREDOC: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r#"(?:\bcat\s*>>?\s*(?P<path>'[^']+'|"[^"]+"|[^\s;&|<>]+)\s*<<-?\s*['"]?(?P<tag>\w+)['"]?|\bcat\s*<<-?\s*['"]?(?P<tag2>\w+)['"]?\s*>>?\s*(?P<path2>'[^']+'|"[^"]+"|[^\s;&|<>]+))"#,
    )
});

/// The subject line of the commit `command` makes, if it makes one whose
/// message can be read; `files` holds the message files written earlier.
pub(crate) fn subject(command: &str, files: &MessageFiles) -> Option<String> {
    let start = COMMIT.find(command)?;
    // The commit's own arguments run to the end of its line or the next
    // command of a chain; a here-document's body follows the line.
    let rest = command.get(start.end()..)?;
    let line_end = rest.find(['\n', ';', '|']).unwrap_or(rest.len());
    let line = rest.get(..line_end)?;
    let args = line.get(..line.find("&&").unwrap_or(line.len()))?;
    let words = shell_words(args);
    let value = |i: usize| words.get(i + 1).map(String::as_str);
    for (i, word) in words.iter().enumerate() {
        let word = word.as_str();
        if let Some(message) = word.strip_prefix("--message=") {
            return message_text(message, rest);
        }
        if word == "-m"
            || word == "--message"
            || (word.starts_with('-') && !word.starts_with("--") && word.ends_with('m'))
        {
            return value(i).and_then(|m| message_text(m, rest));
        }
        if let Some(glued) = word.strip_prefix("-m").filter(|m| !m.is_empty()) {
            return message_text(glued, rest);
        }
        let file = match word {
            "-F" | "--file" => value(i),
            w => w.strip_prefix("--file=").or_else(|| w.strip_prefix("-F").filter(|f| !f.is_empty())),
        };
        if let Some(file) = file {
            return if file == "-" {
                // The message comes on standard input: a here-document on
                // this command, or one piped in before it.
                heredoc_after(command).and_then(subject_of)
            } else {
                files.subject(file).map(str::to_string)
            };
        }
    }
    None
}

/// The body of the first here-document opened in `text`.
fn heredoc_after(text: &str) -> Option<&str> {
    let caps = HEREDOC.captures(text)?;
    let tag = caps.name("q").or(caps.name("d")).or(caps.name("b"))?.as_str();
    heredoc_body(text.get(caps.get(0)?.end()..)?, tag)
}

/// The text of a `-m` value: itself, or the here-document it substitutes
/// (`"$(cat <<'EOF'`: the shell words stop at the line's end).
fn message_text(value: &str, rest: &str) -> Option<String> {
    if value.contains("$(") {
        return heredoc_after(rest).and_then(subject_of);
    }
    subject_of(value)
}

/// The body of a here-document whose opening line ends just before `after`:
/// the lines up to the one that is `tag` alone.
fn heredoc_body<'a>(after: &'a str, tag: &str) -> Option<&'a str> {
    let body = after.get(after.find('\n')? + 1..)?;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        if line.trim() == tag {
            return body.get(..offset);
        }
        offset += line.len();
    }
    Some(body)
}

/// The first non-blank line of a message, white space collapsed, or `None`
/// when it holds no words (a template, a variable).
fn subject_of(message: &str) -> Option<String> {
    let line = message.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.replace("\\n", " ");
    let line = line.split("\\n").next().unwrap_or(&line).trim();
    let collapsed: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.starts_with('$') || collapsed.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
        return None;
    }
    Some(crate::extract::clip(&collapsed, SUBJECT_CHARS))
}

fn is_message_file(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_ascii_lowercase();
    name.contains("commit") || name.contains("msg") || name.contains("message")
}

fn unquote(word: &str) -> String {
    word.trim_matches(|c| c == '\'' || c == '"').to_string()
}

/// Splits a command's arguments into words the way a shell would, well
/// enough for flags and quoted messages: single and double quotes, and
/// backslash escapes inside double quotes and outside quotes.
fn shell_words(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = args.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(next) = chars.next() {
                                word.push(next);
                            }
                        }
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(command: &str) -> Option<String> {
        subject(command, &MessageFiles::default())
    }

    #[test]
    fn a_message_given_on_the_command_line() {
        assert_eq!(
            of(r#"git add -A && git commit -m "Fix the parser" && git push"#).as_deref(),
            Some("Fix the parser")
        );
        assert_eq!(of("git commit -am 'chore: bump to 1.2.0'").as_deref(), Some("chore: bump to 1.2.0"));
        assert_eq!(of(r#"git commit -m "feat: say \"hi\"" -m "Longer body""#).as_deref(), Some("feat: say \"hi\""));
        assert_eq!(of("git commit --amend -m \"docs: typo\"").as_deref(), Some("docs: typo"));
        assert_eq!(of("git commit --message=wip").as_deref(), Some("wip"));
        assert_eq!(of("git -C repo commit -m 'Add tests'").as_deref(), Some("Add tests"));
    }

    #[test]
    fn a_message_in_a_here_document() {
        let claude = "git commit -m \"$(cat <<'EOF'\nfeat(api): rate-limit login attempts\n\nFive tries a minute.\n\n\
                      Co-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"";
        assert_eq!(of(claude).as_deref(), Some("feat(api): rate-limit login attempts"));
        let stdin = "git commit -F - <<'MSG'\n\nfix: keep the cursor on resize\nbody\nMSG";
        assert_eq!(of(stdin).as_deref(), Some("fix: keep the cursor on resize"));
        let piped = "cat <<'EOF' | git commit -F -\nrefactor: split the reader\nEOF";
        assert_eq!(of(piped).as_deref(), Some("refactor: split the reader"));
    }

    #[test]
    fn a_message_file_written_earlier_in_the_session() {
        let mut files = MessageFiles::default();
        files.wrote("/tmp/commit-msg.txt", "\nfeat: CSV export\n\nDetails");
        files.wrote("src/main.rs", "fn main() {}");
        assert_eq!(subject("git commit -F /tmp/commit-msg.txt", &files).as_deref(), Some("feat: CSV export"));
        assert_eq!(subject("git commit -F src/main.rs", &files), None, "only message files are remembered");
        files.wrote_by_shell("cat > /tmp/msg.txt <<'EOF'\ndocs: the install page\nEOF\ngit commit -F /tmp/msg.txt");
        assert_eq!(subject("git commit --file=/tmp/msg.txt", &files).as_deref(), Some("docs: the install page"));
    }

    #[test]
    fn no_message_no_subject() {
        for command in
            ["git commit --amend --no-edit", "git commit", "git log -m", "git commit -m \"$MSG\"", "echo commit -m x"]
        {
            assert_eq!(of(command), None, "{command}");
        }
    }
}
