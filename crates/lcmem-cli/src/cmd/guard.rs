//! `lcmem guard` and `lcmem redact`: the two guards, on their own.

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "Reads one text per line on stdin and prints a verdict per line: `instruction` or `benign` \
with the reasons. A line holding a JSON string (starting with a double quote) is decoded first, so texts with \
line breaks can be judged too. Exit code 0 whatever the verdicts.")]
pub struct GuardArgs {
    /// One JSON object per line: {"text":…,"instruction":true|false,"reasons":[…]}
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
#[command(after_help = "Copies stdin to stdout with every recognised secret replaced by a typed marker such as \
[REDACTED:github-token]. The whole stream is read first, so secrets that span lines (PEM private keys) are \
caught. Named shapes only: git SHAs, hashes, UUIDs and digests pass unchanged.")]
pub struct RedactArgs {}

pub fn guard(args: GuardArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line?;
        let text = if line.starts_with('"') { serde_json::from_str::<String>(&line).unwrap_or(line) } else { line };
        let verdict = lcmem_guard::judge(&text);
        if args.json {
            let value =
                serde_json::json!({"text": text, "instruction": verdict.instruction, "reasons": verdict.reasons});
            writeln!(out, "{value}")?;
        } else {
            let label = if verdict.instruction { "instruction" } else { "benign" };
            writeln!(out, "{label:<11}  {}  {}", verdict.reasons.join(","), text)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn redact(_args: RedactArgs) -> anyhow::Result<ExitCode> {
    let mut input = Vec::new();
    std::io::stdin().lock().read_to_end(&mut input)?;
    let text = String::from_utf8_lossy(&input);
    std::io::stdout().lock().write_all(lcmem_redact::redact(&text).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
