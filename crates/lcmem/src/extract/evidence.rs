//! What a session's tool calls say it did, read off the inputs the agent
//! wrote (never their output): the files it changed, the commits, tags,
//! pushes, releases and test runs of its shell commands, and where its plan
//! ended up.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{ExtractInput, TodoStatus};

/// The evidence of one session.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Evidence {
    /// Files the session's tools changed, in order, once each.
    pub changed: Vec<String>,
    /// Subjects of the commits it made (`git commit -m`), in order.
    pub commits: Vec<String>,
    /// Tags it created or pushed.
    pub tags: Vec<String>,
    /// It pushed to the main branch (or pushed without naming a branch
    /// while committing on it), merged into it, or merged a pull request.
    pub pushed_main: bool,
    /// It published a release or deployed (a registry publish, a release
    /// tool, a deploy command).
    pub released: bool,
    /// It ran the tests after its last change, or changed a test file.
    pub tested: bool,
    /// It threw work away (`git revert`, `git checkout -- …`, `git restore`,
    /// `git reset --hard`, `git stash drop`) after changing files.
    pub reverted: bool,
    /// A shell command changed files (`sed -i`, a redirect into a file,
    /// `mv`, `rm`, `git mv`, a dependency added…).
    pub shell_changed: bool,
    /// Items of its last plan that were completed.
    pub done_todos: Vec<String>,
    /// Items of its last plan still open.
    pub open_todos: Vec<String>,
}

/// Whether a tool of this name changes the files it names.
pub fn modifies(tool: &str) -> bool {
    let name = tool.to_ascii_lowercase();
    ["edit", "write", "patch", "create", "move", "rename", "delete", "notebook"].iter().any(|verb| name.contains(verb))
}

static COMMIT_MESSAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\bgit\b[^|;&]*?\bcommit\b[^|;&]*?\s-(?:[a-z]*m|-message)[ =]?\s*(?:"([^"]+)|'([^']+)|(\S+))"#)
        .expect("valid regex")
});
static TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bgit\s+(?:tag\s+(?:-[as]\s+|-m\s+\S+\s+|-f\s+)*|push\s+\S+\s+(?:refs/tags/)?)(v?\d+\.\d+[\w.\-]*)\b")
        .expect("valid regex")
});
static PUSH_MAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\bgit\s+push\b(?:\s+-\S+)*(?:\s+\S+\s+(?:HEAD:)?(?:main|master|trunk)\b|\s*$|\s*[;&|])|\bgit\s+push\b.*--tags|\bgh\s+pr\s+merge\b",
    )
    .expect("valid regex")
});
static RELEASE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:npm|pnpm|yarn)\s+publish\b|\bcargo\s+(?:publish|release)\b|\bgh\s+release\s+create\b|\bgoreleaser\s+release\b|\btwine\s+upload\b|\bpoetry\s+publish\b|\bgem\s+push\b|\b(?:fly|flyctl)\s+deploy\b|\bvercel\b.*--prod\b|\bkubectl\s+(?:apply|rollout)\b|\bhelm\s+(?:upgrade|install)\b|\bterraform\s+apply\b|\bnetlify\s+deploy\b.*--prod|\bmake\s+(?:release|deploy|publish)\b",
    )
    .expect("valid regex")
});
static TEST_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:cargo\s+(?:test|nextest)|go\s+test|pytest|py\.test|python3?\s+-m\s+(?:pytest|unittest)|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test|npx\s+(?:jest|vitest)|jest|vitest|make\s+(?:test|check)|mvn\s+(?:test|verify)|gradlew?\s+test|mix\s+test|rspec|phpunit|dotnet\s+test|ctest|tox)\b",
    )
    .expect("valid regex")
});
static SHELL_CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:^|[;&|]\s*)(?:sudo\s+)?(?:sed\s+-i|perl\s+-p?i|mv|rm|cp|mkdir|touch|ln|chmod|patch|tee)\s|\bgit\s+(?:mv|rm|apply|am|cherry-pick|merge)\b|\b(?:npm|pnpm|yarn|bun)\s+(?:add|install|i|uninstall|remove)\s+\S|\bcargo\s+(?:add|remove)\b|\bgo\s+get\b|\bpoetry\s+add\b|\buv\s+add\b|[^>&0-9]>>?\s*[\w./~-]+",
    )
    .expect("valid regex")
});

static REVERT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\bgit\s+(?:revert\b|checkout\s+(?:\S+\s+)?--\s|checkout\s+\.\s*$|restore\b|reset\s+--hard\b|stash\s+drop\b)",
    )
    .expect("valid regex")
});

/// Whether a path names a test file.
fn is_test_file(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    let name = p.rsplit('/').next().unwrap_or(&p);
    p.contains("/tests/")
        || p.starts_with("tests/")
        || p.contains("/test/")
        || p.contains("__tests__")
        || name.starts_with("test_")
        || name.contains("_test.")
        || name.contains(".test.")
        || name.contains(".spec.")
        || name.contains("_spec.")
}

impl Evidence {
    pub fn of(input: &ExtractInput) -> Evidence {
        let mut evidence = Evidence::default();
        let mut seen = HashSet::new();
        let mut plan = None;
        for tool in &input.tools {
            if modifies(&tool.name) {
                for file in &tool.files {
                    if seen.insert(file.clone()) {
                        evidence.changed.push(file.clone());
                    }
                    if is_test_file(file) {
                        evidence.tested = true;
                    }
                }
            }
            if !tool.todos.is_empty() {
                plan = Some(&tool.todos);
            }
            let Some(command) = tool.command.as_deref() else { continue };
            for caps in COMMIT_MESSAGE.captures_iter(command) {
                let message = caps.get(1).or(caps.get(2)).or(caps.get(3)).map_or("", |m| m.as_str());
                let subject = message.lines().next().unwrap_or("").trim();
                if !subject.is_empty() && !evidence.commits.iter().any(|c| c == subject) {
                    evidence.commits.push(subject.to_string());
                }
            }
            for caps in TAG.captures_iter(command) {
                let tag = caps[1].to_string();
                if !evidence.tags.contains(&tag) {
                    evidence.tags.push(tag);
                }
            }
            evidence.pushed_main |= PUSH_MAIN.is_match(command);
            evidence.shell_changed |= SHELL_CHANGE.is_match(command) && !command.contains("/dev/null");
            evidence.released |= RELEASE.is_match(command);
            if TEST_RUN.is_match(command) {
                evidence.tested |= !evidence.changed.is_empty();
            }
            if REVERT.is_match(command) && !evidence.changed.is_empty() {
                evidence.reverted = true;
            }
        }
        for todo in plan.into_iter().flatten() {
            match todo.status {
                TodoStatus::Completed => evidence.done_todos.push(todo.text.clone()),
                TodoStatus::Pending | TodoStatus::InProgress => evidence.open_todos.push(todo.text.clone()),
            }
        }
        evidence
    }

    /// Whether the session did anything beyond talking: changed a file,
    /// committed, tagged, pushed or released.
    pub fn acted(&self) -> bool {
        !self.changed.is_empty()
            || self.shell_changed
            || !self.commits.is_empty()
            || !self.tags.is_empty()
            || self.pushed_main
            || self.released
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::ToolUse;

    fn shell(command: &str) -> ToolUse {
        ToolUse { name: "Bash".into(), command: Some(command.into()), ..Default::default() }
    }

    fn edit(file: &str) -> ToolUse {
        ToolUse { name: "Edit".into(), files: vec![file.into()], ..Default::default() }
    }

    fn of(tools: Vec<ToolUse>) -> Evidence {
        let input = ExtractInput {
            session_id: "s".into(),
            title: String::new(),
            created_at: jiff::Timestamp::UNIX_EPOCH,
            kind: crate::journal::SealKind::Done,
            turns: vec![],
            tools,
        };
        Evidence::of(&input)
    }

    #[test]
    fn commits_tags_pushes_and_releases_are_read_off_commands() {
        let e = of(vec![
            edit("CHANGELOG.md"),
            shell(r#"git add -A && git commit -m "chore(release): v1.2.0""#),
            shell("git tag -a v1.2.0 -m 'v1.2.0'"),
            shell("git push origin main --tags"),
            shell("cargo publish"),
        ]);
        assert_eq!(e.commits, ["chore(release): v1.2.0"]);
        assert_eq!(e.tags, ["v1.2.0"]);
        assert!(e.pushed_main && e.released && e.acted());
    }

    #[test]
    fn a_push_to_a_feature_branch_is_not_a_push_to_main() {
        let e = of(vec![shell("git push -u origin feature/x")]);
        assert!(!e.pushed_main);
        assert!(of(vec![shell("git push")]).pushed_main);
        assert!(of(vec![shell("git push origin HEAD:main")]).pushed_main);
    }

    #[test]
    fn tests_count_after_a_change_and_reverts_after_work() {
        assert!(!of(vec![shell("cargo test")]).tested, "a test run before any change proves no fix");
        assert!(of(vec![edit("src/a.rs"), shell("cargo test -p a")]).tested);
        assert!(of(vec![edit("internal/upload/keys_test.go")]).tested);
        assert!(of(vec![edit("src/a.rs"), shell("git checkout -- src/a.rs")]).reverted);
        assert!(!of(vec![shell("git restore src/a.rs")]).reverted, "nothing to throw away");
    }

    #[test]
    fn shell_commands_that_change_files_count_as_acting() {
        for command in
            ["sed -i 's/a/b/' src/a.rs", "echo x > notes.md", "git mv a b", "npm install left-pad", "rm -rf build"]
        {
            assert!(of(vec![shell(command)]).acted(), "{command}");
        }
        for command in
            ["ls -la", "rg -n foo src", "cat a.rs | head", "git status --short", "find . -name x 2>/dev/null"]
        {
            assert!(!of(vec![shell(command)]).acted(), "{command}");
        }
    }

    #[test]
    fn the_last_plan_says_what_was_done() {
        use crate::extract::{Todo, TodoStatus, TodoStatus::*};
        let plan = |items: &[(&str, TodoStatus)]| ToolUse {
            name: "TodoWrite".into(),
            todos: items.iter().map(|(t, s)| Todo { text: t.to_string(), status: *s }).collect(),
            ..Default::default()
        };
        let e = of(vec![
            plan(&[("Write the test", InProgress), ("Fix it", Pending)]),
            plan(&[("Write the test", Completed), ("Fix it", Pending)]),
        ]);
        assert_eq!(e.done_todos, ["Write the test"]);
        assert_eq!(e.open_todos, ["Fix it"]);
    }
}
