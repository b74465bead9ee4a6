//! Structural markers: text dressed up as something other than data.
//!
//! A project fact never needs to look like a chat-template system turn, a
//! tool call, a script tag that phones home or a hidden HTML element. Those
//! shapes only exist to be read by a model as authority or as an action, so
//! the shape alone is enough to withhold the text.

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::RuleTable;

static RULES: LazyLock<RuleTable> = LazyLock::new(|| {
    RuleTable::new(
        "",
        [
            // Chat-template control tokens and role blocks.
            (
                "fake-system-message",
                concat!(
                    r"(?i)<\|?\s*im_(start|end)\s*\|?>|<\|(system|user|assistant|",
                    r"endoftext|eot_id|start_header_id|end_header_id)\|>|\[/?INST\]|",
                    r"<<\s*/?SYS\s*>>",
                ),
            ),
            (
                "fake-system-message",
                concat!(
                    r"(?i)<\s*/?\s*(system|sys|system_prompt|system-prompt|",
                    r"instructions?|information|important|admin|developer|user_instructions|",
                    r"hidden_instructions|secret)\s*>",
                ),
            ),
            (
                "fake-system-message",
                concat!(
                    r"(?im)^\s*#{1,6}\s*(instructions?|system( prompt)?|response|",
                    r"new instructions|important instructions)\s*:?\s*$",
                ),
            ),
            (
                "fake-system-message",
                concat!(
                    r"(?im)^[\s*#>\[(]*(system|developer|admin|administrator|",
                    r"root|sysadmin)[\])*\s]*(override|message|prompt|note|",
                    r"notice|update|alert|instructions?|command)\s*[:*!]",
                ),
            ),
            (
                "fake-system-message",
                concat!(
                    r"(?im)^[\s*#>]*system\s*:[^\n]*\b(you|your|user|assistant|",
                    r"ai|model|agent|instructions?|must|should|always|never|",
                    r"ignore|now|following|important|focus)\b",
                ),
            ),
            ("fake-system-message", r"(?i)\b(system|admin|developer|security|safety) override\b"),
            ("fake-system-message", r"(?i)\[(system|developer|admin)\]\s*(\(#\w*\))?"),
            (
                "fake-system-message",
                concat!(
                    r"(?i)<\s*end of (session|conversation|prompt|context|document|",
                    r"input|data)\s*>|\b(begin|end) (of )?(system|admin|developer) (prompt|",
                    r"message|instructions)\b",
                ),
            ),
            ("fake-dialogue", r"(?im)^[\s*>]*(assistant|ai|gpt|chatgpt|claude|bot)\s*:\s*\S"),
            // Tool-call shaped text.
            ("tool-call", r#"(?i)"type"\s*:\s*"(tool_use|tool_call|function|function_call|tool)""#),
            ("tool-call", r#"(?i)"(tool|tool_name|tool_call|tool_calls|function_call|recipient_name|tool_input)"\s*:"#),
            ("tool-call", r#"(?i)"name"\s*:\s*"[^"]+"\s*,\s*"(arguments|input|parameters|args)"\s*:"#),
            ("tool-call", r#"(?i)"function"\s*:\s*\{|"action"\s*:\s*"[^"]+"\s*,\s*"action_input""#),
            (
                "tool-call",
                r"(?i)<\s*/?\s*(function_calls?|tool_use|tool_calls?|invoke|use_tool|tool_code|tool_result)\b[^>]*>",
            ),
            ("tool-call", r"(?im)^\s*action\s*:\s*\S.*\n\s*action input\s*:"),
            ("tool-call", r"(?i)```\s*(tool|tool_code|tool_call|tool_use|function_call)\b"),
            (
                "tool-call",
                concat!(
                    r"(?i)(^|\n|\byou\s+|\bplease\s+|\bnow\s+|\bthen\s+|\band\s+|",
                    r"[,:]\s*)(call|invoke|trigger|execute|use|run)\s+(the\s+)?[`'\x22]?[\w.-]+[`'\x22]?\s+(tool|",
                    r"function)\s+(with|to|using|passing|and)\b",
                ),
            ),
            (
                "memory-poisoning",
                concat!(
                    r"(?i)\b(memory_(store|write|save|set|add|update)|(save|",
                    r"write|store|add|update)_memory|remember)\s*\(|\bmemory (write|",
                    r"store|set|save)\b",
                ),
            ),
            // Payloads that act when rendered.
            (
                "payload:xss",
                concat!(
                    r"(?i)<\s*(img|svg|iframe|body|video|audio|input|details|",
                    r"object|embed|a)\b[^>]*\bon(error|load|mouseover|focus|",
                    r"toggle|click|begin)\s*=",
                ),
            ),
            (
                "payload:xss",
                concat!(
                    r"(?i)<\s*script\b[^>]*>[^<]{0,300}(fetch|xmlhttprequest|",
                    r"document\.cookie|location|eval|atob|console\.log|alert)",
                ),
            ),
            ("payload:xss", r"(?i)\bjavascript:\s*[\w(]|document\.cookie"),
            ("payload:markdown-exfil", r"(?i)!\[[^\]]*\]\(\s*https?://[^)\s]*\?[^)\s]*=\s*(\[|\{|<|\$|%7B)"),
            (
                "hidden-html",
                // Hidden styling on an element that carries words: an
                // empty hidden input (a honeypot field) is ordinary markup.
                concat!(
                    r#"(?i)<\w+[^>]*style\s*=\s*["'][^"']*(display\s*:\s*none|visibility\s*:\s*hidden|"#,
                    r#"font-size\s*:\s*0|opacity\s*:\s*0(\.0+)?\s*[;"']|color\s*:\s*(white|"#,
                    r#"#fff\b|#ffffff|transparent))[^>]*>\s*[^<\s][^<]*\s[^<]*\S\s*</"#,
                ),
            ),
            ("hidden-html", r"(?i)<\w+[^>]*\shidden\b[^>]*>\s*[^<\s][^<]*\s[^<]*\S\s*</"),
            ("hidden-html", r#"(?i)<\w+[^>]*\saria-hidden\s*=\s*["']?true["']?[^>]*>\s*[^<\s][^<]*\s[^<]*\S"#),
        ],
    )
});

/// A markdown image whose URL carries a query string, anywhere in a text
/// that also asks for data to be appended or encoded into it.
static MD_IMAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)!\[[^\]]*\]\(\s*https?://[^)\s]*\?|https?://\S+\?\w+=\s*$").expect("md image"));
static APPEND_DATA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(append|add|attach|encode|concatenate|substitute|",
        r"replace)\b[^\n]{0,80}\b(summary|conversation|chat|history|",
        r"data|contents?|base64|query|password|secret|token)\b",
    ))
    .expect("append data")
});

pub(crate) fn check(masked: &str, reasons: &mut Vec<String>) {
    RULES.check(masked, reasons);
    if masked.lines().any(|l| MD_IMAGE.is_match(l)) && APPEND_DATA.is_match(masked) {
        reasons.push("payload:markdown-exfil".to_owned());
    }
}
