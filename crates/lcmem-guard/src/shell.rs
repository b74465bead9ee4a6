//! Text that runs downloaded code.
//!
//! Piping a download into an interpreter is an instruction however it is
//! phrased: even as a fact ("the old doc used `curl … | sh`"), a memory that
//! carries it invites an agent to repeat it, so policy is to withhold any
//! text with that shape until a human confirms it. Merely mentioning `curl`
//! or `wget` (downloading a file) is fine; what matters is that the bytes
//! are handed to a shell or an `eval`.

use std::sync::LazyLock;

use crate::rules::RuleTable;

/// Shells and interpreters that execute what they read on stdin.
/// Interpreters only count when they read the program itself from stdin
/// (`| python`, `| python -`), not a data filter such as `| python -m json.tool`.
const SHELLS: &str = concat!(
    r"(sudo\s+(-\S+\s+)*)?(env\s+\S+\s+)*((ba|z|k|da|fi|c|tc|",
    r"a)?sh\b|(python[23]?|perl|ruby|node|php)(\s+-)?\s*($|",
    r"[\n;&|)`'\x22])|iex\b|invoke-expression\b|pwsh\b|powershell\b|",
    r"source\b)",
);

static RULES: LazyLock<RuleTable> = LazyLock::new(|| {
    let download =
        r"(curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|http(ie)?|lwp-request|gh\s+api)\b";
    let pipe_download = format!(r"(?i)\b{download}[^|\n;]*\|\s*({SHELLS})");
    let decode_pipe =
        format!(r"(?i)\b(base64|openssl\s+(base64|enc))\b[^|\n]*(-d|--decode|-D)\b[^|\n]*\|\s*({SHELLS})");
    let any_pipe_to_decoded = format!(r"(?i)\|\s*base64\s+(-d|--decode|-D)\b[^|\n]*\|\s*({SHELLS})");
    let table: Vec<(&'static str, String)> = vec![
        ("shell-pipe", pipe_download),
        ("shell-pipe", decode_pipe),
        ("shell-pipe", any_pipe_to_decoded),
        ("shell-pipe", format!(r"(?i)\b(ba|z|k)?sh\s+(-s\s+)?<\(\s*{download}")),
        ("shell-pipe", format!(r#"(?i)\b(ba|z|k)?sh\s+-c\s+["']?\$\(\s*{download}"#)),
        ("shell-pipe", format!(r#"(?i)\beval\s*["'(]?\s*["']?\$[({{]\s*{download}"#)),
        ("shell-pipe", format!(r#"(?i)\b(python[23]?|perl|ruby|node)\s+-[ce]\s+["']?\$\(\s*{download}"#)),
        (
            "shell-pipe",
            concat!(
                r"(?i)\b(iex|invoke-expression)\b\s*\(?\s*(\(|irm|iwr|invoke-restmethod|",
                r"invoke-webrequest|new-object|\[)",
            )
            .into(),
        ),
        (
            "shell-pipe",
            concat!(
                r"(?i)\binvoke-expression\b|\bdownloadstring\s*\(|\bpowershell(\.exe)?\s+(-\w+\s+)*-(e|",
                r"enc|encodedcommand)\s+[A-Za-z0-9+/=]{16,}",
            )
            .into(),
        ),
        ("shell-pipe", r"(?i)\|\s*source\s+/dev/stdin\b|\bsource\s+<\(\s*(curl|wget)\b".into()),
        (
            "remote-exec",
            concat!(
                r"(?i)\b(exec|eval)\s*\(\s*(urllib(\.request)?\.urlopen|",
                r"requests\.get|urlopen|fetch|http\.get|await fetch|__import__\(\s*['\x22](urllib|",
                r"requests))",
            )
            .into(),
        ),
        (
            "remote-exec",
            r"(?i)\b(exec|eval)\s*\([^)\n]{0,80}\b(base64\.b64decode|atob|decode\(\s*['\x22]base64)".into(),
        ),
    ];
    RuleTable::new("", table.iter().map(|(l, p)| (*l, p.as_str())))
});

pub(crate) fn check(text: &str, reasons: &mut Vec<String>) {
    RULES.check(text, reasons);
}
