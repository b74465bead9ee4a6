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
        // The same told in words: "piping the install script straight into sudo bash".
        (
            "shell-pipe",
            concat!(
                r"(?i)\bpip(e|es|ed|ing)\b[^.\n]{0,100}\b(in)?to\s+(sudo\s+)?((ba|z|k)?sh|a shell|python|perl|ruby|node)\b",
                r" !! (?i)\b(used to|no longer|previously|formerly|never|not|rejected|instead|forbidden|blocked)\b",
            )
            .into(),
        ),
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
        // Setup steps that fetch code and run it without a look: a package
        // runner told to take the latest release and not to ask, a package
        // installed from an address, a download saved and then run.
        (
            "remote-code",
            concat!(
                r"(?i)\b(npx|pnpx|bunx|(pnpm|yarn|npm)\s+(dlx|exec))\s+(-\S+\s+)*[@\w./-]+@latest\b|",
                r"(?i)\b(npx|pnpx|bunx|(pnpm|yarn|npm)\s+(dlx|exec))\b[^\n|;]{0,80}\s(--yes|-y)\b",
            )
            .into(),
        ),
        ("remote-code", r"(?i)\b(pip[23]?|uv\s+pip|pipx)\s+install\s+(-\S+\s+)*(https?://|git\+|svn\+|hg\+)".into()),
        (
            "remote-code",
            format!(
                concat!(
                    r"(?i)\b{download}[^\n|]{{0,200}}(&&|;|\bthen\b)\s*(sudo\s+)?(((ba|z|k)?sh|source|\.|",
                    r"python[23]?|node|ruby|perl|pwsh|powershell(\.exe)?(\s+-\w+)*)\s+[\w./~-]|\./[\w.-]|",
                    r"chmod\s+\+x\b[^\n]{{0,80}}(&&|;)\s*\./)",
                ),
                download = download
            ),
        ),
        (
            "remote-code",
            format!(
                concat!(
                    r"(?i)\bdeno\s+run\s+(-\S+\s+)*https?://|\bdocker\s+run\b[^\n]{{0,200}}/var/run/docker\.sock|",
                    r"\bbrew\s+(tap|install)\b[^\n]{{0,120}}(https?://|--HEAD\b)|\btapp(ing|ed)\s+https?://\S+\s+with\s+brew|",
                    r"\b(uvx|pipx\s+run)\b[^\n]{{0,40}}(git\+|https?://)|",
                    r"\b(python[23]?|node|ruby|perl|bash|sh|zsh)\s+(-\S+\s+)*<\(\s*{download}|",
                    r"\bwhatever\b[^\n]{{0,80}}\b(says|tells you)\b[^\n]{{0,40}}\b(paste|run|execute)",
                ),
                download = download
            ),
        ),
        (
            "remote-code",
            concat!(
                r"(?i)\b(download\w*|tarball|archive|zip|nightly)\b[^\n]{0,150}\b(run|execute)\w*\s+\./[\w.-]+",
                r" !! \b(verif\w+|pinned|signed by|used to|once|formerly|no longer)\b",
            )
            .into(),
        ),
        (
            "remote-code",
            concat!(
                r"(?i)\bcargo\s+install\s+(-\S+\s+)*--git\b|\b(uvx|pipx\s+run|go\s+run)\s+(-\S+\s+)*\S+@latest\b|",
                r"(?i)\b(fed|feeds?|passed|pass(es)?|handed|hands?|sent|sends?)\s+(straight\s+|directly\s+)?",
                r"(in)?to\s+(a\s+|the\s+)?((ba|z|k)?sh|shell|interpreter)\b",
            )
            .into(),
        ),
        (
            "remote-code",
            concat!(
                r"(?i)\bpip(e|es|ed|ing)\s+([\w'-]+\s+){0,4}?(https?://\S+|(the |this |that |an? )?",
                r"(url|script|installer|link|output|download|file))\s+(in)?to\s+(a\s+|the\s+)?",
                r"((ba|z|k)?sh|shell|interpreter|python|sudo)\b",
                r" !! \b(used to|once|formerly|no longer|until|previously|back when)\b",
            )
            .into(),
        ),
        (
            "remote-code",
            concat!(
                r"(?i)\b(npx|pnpx|bunx|uvx|pipx\s+run|(pnpm|yarn|npm)\s+(dlx|exec)|go\s+run)\b[^.\n]{0,120}\b(no ",
                r"version pinned|not pinned|unpinned|whichever version|newest|latest (version|release)|fetched fresh|",
                r"always the latest)",
            )
            .into(),
        ),
        (
            "remote-code",
            concat!(
                r"(?i)\b(download|fetch|pull|grabb?)(s|ed|ing)?\b[^.\n]{0,120}\b(and|then)\s+(\w+\s+){0,2}?",
                r"(run|runs|executed?|sourced?|piped)\b[^.\n]{0,40}\b((ba|z|k)?sh|shell|powershell|python|node)\b",
                r" !! \b(checksum|verified|signature|signed|sha-?256|pinned|used to|once|formerly|no longer)\b",
            )
            .into(),
        ),
    ];
    RuleTable::new("", table.iter().map(|(l, p)| (*l, p.as_str())))
});

pub(crate) fn check(text: &str, reasons: &mut Vec<String>) {
    RULES.check(text, reasons);
}
