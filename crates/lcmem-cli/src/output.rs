//! Printing: errors as sentences, warnings, dates, JSON.

use std::process::ExitCode;

use jiff::Timestamp;
use lcmem::diagnostic::Diagnostic;

/// Prints an error chain as one or two sentences and picks the exit code.
pub fn report_error(error: &anyhow::Error) -> ExitCode {
    let mut message = format!("lcmem: {error}");
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !message.contains(&cause) {
            message.push_str(&format!(": {cause}"));
        }
    }
    eprintln!("{message}");
    let memory_off =
        error.chain().any(|e| matches!(e.downcast_ref::<lcmem::Error>(), Some(lcmem::Error::MemoryOff { .. })));
    ExitCode::from(if memory_off { 3 } else { 1 })
}

pub fn warn_all(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprintln!("warning: {d}");
    }
}

/// A date as people read it in a list: `2026-11-18`.
pub fn day(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%d").to_string()
}

pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}
