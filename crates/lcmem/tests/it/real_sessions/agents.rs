//! Transcripts in the shapes Claude Code and Codex write them, built line by
//! line: the records, envelopes and wrappers the real agents use (a commit
//! in a here-document, a tool result that reports an error, a `summary`
//! record naming another conversation's leaf, `<synthetic>` client
//! messages, `update_plan`, `function_call_output` with its exit code).

use serde_json::{Value, json};

/// A Claude Code transcript, a record at a time.
pub struct Claude {
    lines: Vec<Value>,
    session: String,
    n: usize,
    minute: usize,
    parent: Option<String>,
}

impl Claude {
    pub fn new(session: &str) -> Claude {
        Claude { lines: Vec::new(), session: session.to_string(), n: 0, minute: 0, parent: None }
    }

    fn record(&mut self, kind: &str, message: Value, extra: Value) -> String {
        self.n += 1;
        self.minute += 1;
        let uuid = format!("{}-{:04}", self.session, self.n);
        let mut record = json!({
            "type": kind,
            "uuid": uuid,
            "parentUuid": self.parent,
            "sessionId": self.session,
            "cwd": "/work/app",
            "timestamp": format!("2026-11-20T10:{:02}:{:02}Z", self.minute / 60, self.minute % 60),
            "message": message,
        });
        if let (Value::Object(r), Value::Object(e)) = (&mut record, extra) {
            r.extend(e);
        }
        self.lines.push(record);
        self.parent = Some(uuid.clone());
        uuid
    }

    /// The person's prompt.
    pub fn user(mut self, text: &str) -> Claude {
        self.record("user", json!({"role": "user", "content": text}), json!({}));
        self
    }

    /// The model's prose.
    pub fn says(mut self, text: &str) -> Claude {
        self.record(
            "assistant",
            json!({"role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": text}]}),
            json!({}),
        );
        self
    }

    /// What the client writes in the model's name (usage limits, API errors).
    pub fn client_says(mut self, text: &str) -> Claude {
        self.record(
            "assistant",
            json!({"role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": text}]}),
            json!({"isApiErrorMessage": true}),
        );
        self
    }

    /// A tool call and its result: `error` marks the result as Claude Code
    /// marks a failed Bash command.
    pub fn tool(mut self, name: &str, input: Value, output: &str, error: bool) -> Claude {
        let id = format!("toolu_{}_{}", self.session.len(), self.n + 1);
        self.record(
            "assistant",
            json!({"role": "assistant", "model": "claude-sonnet-4-5",
                   "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}),
            json!({}),
        );
        self.record(
            "user",
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": output, "is_error": error}]}),
            json!({}),
        );
        self
    }

    pub fn bash(self, command: &str, output: &str) -> Claude {
        let error = output.starts_with("Exit code");
        self.tool("Bash", json!({"command": command, "description": "Run a command"}), output, error)
    }

    pub fn edit(self, file: &str) -> Claude {
        self.tool(
            "Edit",
            json!({"file_path": format!("/work/app/{file}"), "old_string": "a", "new_string": "b"}),
            "The file has been updated.",
            false,
        )
    }

    pub fn write(self, file: &str, content: &str) -> Claude {
        self.tool(
            "Write",
            json!({"file_path": format!("/work/app/{file}"), "content": content}),
            "File created successfully",
            false,
        )
    }

    pub fn todos(self, items: &[(&str, &str)]) -> Claude {
        let todos: Vec<Value> =
            items.iter().map(|(t, s)| json!({"content": t, "status": s, "activeForm": t})).collect();
        self.tool("TodoWrite", json!({"todos": todos}), "Todos have been modified successfully.", false)
    }

    /// A `summary` record: Claude Code's title for the conversation that
    /// ends at `leaf`.
    pub fn summary(mut self, text: &str, leaf: &str) -> Claude {
        self.lines.push(json!({"type": "summary", "summary": text, "leafUuid": leaf}));
        self
    }

    /// The uuid of the last record, for a summary that names it.
    pub fn last_uuid(&self) -> String {
        self.parent.clone().unwrap_or_default()
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.lines.iter().map(|l| format!("{l}\n")).collect::<String>().into_bytes()
    }
}

/// A Codex CLI rollout, a line at a time.
pub struct Codex {
    lines: Vec<Value>,
    n: usize,
}

impl Codex {
    pub fn new(id: &str) -> Codex {
        let meta = json!({"timestamp": "2026-11-21T09:00:00Z", "type": "session_meta",
                          "payload": {"id": id, "timestamp": "2026-11-21T09:00:00Z", "cwd": "/work/app"}});
        Codex { lines: vec![meta], n: 0 }
    }

    fn item(mut self, payload: Value) -> Codex {
        self.n += 1;
        self.lines.push(json!({"timestamp": format!("2026-11-21T09:{:02}:00Z", self.n.min(59)), "type": "response_item", "payload": payload}));
        self
    }

    pub fn user(self, text: &str) -> Codex {
        self.item(json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}))
    }

    pub fn says(self, text: &str) -> Codex {
        self.item(json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}))
    }

    /// A shell call and its output, with the exit code Codex records.
    pub fn shell(self, script: &str, output: &str, exit: i64) -> Codex {
        let call = format!("call_{}", self.n + 1);
        let arguments = json!({"command": ["bash", "-lc", script], "workdir": "/work/app"}).to_string();
        let out = json!({"output": output, "metadata": {"exit_code": exit, "duration_seconds": 0.1}}).to_string();
        self.item(json!({"type": "function_call", "name": "shell", "arguments": arguments, "call_id": call}))
            .item(json!({"type": "function_call_output", "call_id": call, "output": out}))
    }

    pub fn patch(self, file: &str) -> Codex {
        let call = format!("call_{}", self.n + 1);
        let patch = format!("*** Begin Patch\n*** Update File: {file}\n@@\n-a\n+b\n*** End Patch");
        self.item(json!({"type": "custom_tool_call", "name": "apply_patch", "input": patch, "call_id": call}))
            .item(json!({"type": "custom_tool_call_output", "call_id": call, "output": "Success. Updated the following files:"}))
    }

    pub fn plan(self, items: &[(&str, &str)]) -> Codex {
        let call = format!("call_{}", self.n + 1);
        let plan: Vec<Value> = items.iter().map(|(t, s)| json!({"step": t, "status": s})).collect();
        let arguments = json!({"plan": plan}).to_string();
        self.item(json!({"type": "function_call", "name": "update_plan", "arguments": arguments, "call_id": call}))
            .item(json!({"type": "function_call_output", "call_id": call, "output": "Plan updated"}))
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.lines.iter().map(|l| format!("{l}\n")).collect::<String>().into_bytes()
    }
}
