//! The files a shell command writes by redirection: `printf … > notes.txt`,
//! `echo … >> log.md`, `… | tee [-a] out.txt`, `cat > f <<'EOF'`. What else
//! a command touches cannot be read off it safely, so nothing else is taken:
//! a here-document's body is content, quoted text is text, `2>` is
//! diagnostics, `/dev/…` is no file, and a path with a variable in it is not
//! known.

/// The files `script` writes by redirection, as written, in order, once each.
pub(crate) fn written(script: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |path: String| {
        let known = !path.is_empty() && !path.starts_with("/dev/") && !path.contains(['$', '`', '*', '?']);
        if known && !out.contains(&path) {
            out.push(path);
        }
    };
    let words = words(&without_heredoc_bodies(script));
    let mut i = 0;
    while let Some((word, quoted)) = words.get(i) {
        if !quoted && [">", ">>", ">|", "1>", "1>>", "&>", "&>>"].contains(&word.as_str()) {
            if let Some((target, _)) = words.get(i + 1) {
                push(target.clone());
            }
            i += 2;
            continue;
        }
        if !quoted && word == "tee" {
            let mut j = i + 1;
            while let Some((arg, arg_quoted)) = words.get(j) {
                if !arg_quoted && is_separator(arg) {
                    break;
                }
                if *arg_quoted || !arg.starts_with('-') {
                    push(arg.clone());
                }
                j += 1;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

fn is_separator(word: &str) -> bool {
    matches!(word, "|" | "||" | "&&" | ";" | "&" | ">" | ">>" | "<" | "<<" | "2>" | "2>>" | "&>")
}

/// The script without the bodies of its here-documents.
fn without_heredoc_bodies(script: &str) -> String {
    let mut out = String::new();
    let mut ending: Option<String> = None;
    for line in script.lines() {
        if let Some(tag) = &ending {
            if line.trim() == tag {
                ending = None;
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if let Some(at) = line.find("<<") {
            let tag: String = line
                .get(at + 2..)
                .unwrap_or("")
                .trim_start_matches('-')
                .trim_start()
                .chars()
                .filter(|c| *c != '\'' && *c != '"')
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !tag.is_empty() {
                ending = Some(tag);
            }
        }
    }
    out
}

/// The script's words, with whether each was quoted; redirection and
/// control operators are words of their own.
fn words(script: &str) -> Vec<(String, bool)> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut chars = script.chars().peekable();
    let end = |word: &mut String, quoted: &mut bool, words: &mut Vec<(String, bool)>| {
        if !word.is_empty() || *quoted {
            words.push((std::mem::take(word), *quoted));
        }
        *quoted = false;
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                quoted = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => word.extend(chars.next()),
            c if c.is_whitespace() => end(&mut word, &mut quoted, &mut words),
            '>' | '<' | '|' | ';' | '&' => {
                // A digit right before `>` is a descriptor (`2>`), part of the operator.
                let descriptor = !quoted && word.len() == 1 && word.chars().all(|d| d.is_ascii_digit());
                if !descriptor {
                    end(&mut word, &mut quoted, &mut words);
                }
                let mut op = std::mem::take(&mut word);
                op.push(c);
                while let Some(&next) = chars.peek() {
                    if matches!(next, '>' | '<' | '|' | '&') && op.len() < 3 {
                        op.push(next);
                        chars.next();
                    } else {
                        break;
                    }
                }
                words.push((op, false));
            }
            c => word.push(c),
        }
    }
    end(&mut word, &mut quoted, &mut words);
    words
}

#[cfg(test)]
mod tests {
    use super::written;

    #[test]
    fn redirects_and_tee_name_the_files_a_command_wrote() {
        assert_eq!(written("printf 'Scratch notes\\n' > notes.txt"), ["notes.txt"]);
        assert_eq!(written("echo done >> log.md && cat log.md"), ["log.md"]);
        assert_eq!(written("make 2>&1 | tee -a build.log out/copy.log"), ["build.log", "out/copy.log"]);
        assert_eq!(written("cat > src/a.rs <<'EOF'\nfn main() { println!(\"> not a file\"); }\nEOF"), ["src/a.rs"]);
        assert_eq!(written("echo \"a > b\" >'my notes.txt'"), ["my notes.txt"]);
    }

    #[test]
    fn what_is_no_file_or_not_known_is_left_out() {
        assert!(written("cargo test 2> /tmp/err.txt").is_empty(), "a descriptor's redirect is diagnostics");
        assert_eq!(written("cmd &> all.log"), ["all.log"], "both streams into a file is a file written");
        assert!(written("ls > /dev/null").is_empty());
        assert!(written("echo x > \"$OUT\"").is_empty());
        assert!(written("grep -c '>' notes.txt").is_empty(), "a quoted > is text");
        assert!(written("git diff --stat").is_empty());
    }
}
