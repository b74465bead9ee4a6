//! What a session's tool calls say it did, read off the inputs the agent
//! wrote (never their output): the files it changed, the commits, tags,
//! pushes, releases and test runs of its shell commands, and where its plan
//! ended up.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{ExtractInput, Mark, TodoStatus, ToolUse};

/// The evidence of one session.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Evidence {
    /// Files the session's tools changed, in order, once each.
    pub changed: Vec<String>,
    /// Files it created (a `Write` of a file it had not read or edited
    /// before), a subset of `changed`.
    pub created: Vec<String>,
    /// Subjects of the commits it made, in order: only commits that were
    /// made (a commit that found nothing to commit, or failed, is none).
    pub commits: Vec<String>,
    /// Tags it created or pushed.
    pub tags: Vec<String>,
    /// Branches it pushed to, in order; `None` where the branch is not known.
    pub pushes: Vec<Option<String>>,
    /// It pushed to the main branch, merged into it, or merged a pull request.
    pub pushed_main: bool,
    /// It published a release or deployed (a registry publish, a release
    /// tool, a deploy command) and the command did not fail.
    pub released: bool,
    /// It ran the tests after its last change and they did not fail, or
    /// changed a test file.
    pub tested: bool,
    /// Its last test run failed.
    pub tests_failed: bool,
    /// It ran the tests, and their last run passed.
    pub test_run_passed: bool,
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
    /// The project's checks the session ran and saw pass (tests, lint, type
    /// checks), as run, once each: how this project is checked.
    pub checks: Vec<String>,
    /// Where the last plan was set: the number of turns before it.
    pub plan_at: Option<usize>,
    /// Issues it closed in a tracker (`bd close proj-a1.1`, `gh issue close 12`).
    pub closed_issues: Vec<String>,
}

/// Whether a tool of this name changes the files it names.
pub fn modifies(tool: &str) -> bool {
    let name = tool.to_ascii_lowercase();
    ["edit", "write", "patch", "create", "move", "rename", "delete", "notebook"].iter().any(|verb| name.contains(verb))
}

static COMMIT_MESSAGE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r#"\bgit\b[^|;&]*?\bcommit\b[^|;&]*?\s-(?:[a-z]*m|-message)[ =]?\s*(?:"([^"]+)|'([^']+)|(\S+))"#,
    )
});
/// `git push [flags] [remote] [refspec]`: the refspec's destination is the branch.
static PUSH: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\bgit\s+push\b(?P<args>[^;&|\n]*)"));
/// The branch a command switches to (`git checkout -b x`, `git switch -c x`, `git checkout x`).
static SWITCH: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(r"\bgit\s+(?:checkout(?:\s+-[bB])?|switch(?:\s+-[cC])?)\s+(?P<branch>[\w./-]+)\s*(?:$|[;&|])")
});
static MERGE_MAIN: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\bgh\s+pr\s+merge\b"));
/// Closing a tracked issue: `bd close <id>…`, `bd update <id> --status closed`, `gh issue close <n>`.
static CLOSE_ISSUE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"\bbd\s+close\s+(?P<bd>[\w.-]+(?:\s+[\w]+-[\w.-]+)*)|\bbd\s+update\s+(?P<upd>[\w.-]+)\b[^;&|\n]*--status[ =](?:closed|done)\b|\bgh\s+issue\s+close\s+#?(?P<gh>\d+)",
    )
});

static TAG: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"\bgit\s+(?:tag\s+(?:-[as]\s+|-m\s+\S+\s+|-f\s+)*|push\s+\S+\s+(?:refs/tags/)?)(v?\d+\.\d+[\w.\-]*)\b",
    )
});
static RELEASE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"\b(?:npm|pnpm|yarn)\s+publish\b|\bcargo\s+(?:publish|release)\b|\bgh\s+release\s+create\b|\bgoreleaser\s+release\b|\btwine\s+upload\b|\bpoetry\s+publish\b|\bgem\s+push\b|\b(?:fly|flyctl)\s+deploy\b|\bvercel\b.*--prod\b|\bkubectl\s+(?:apply|rollout)\b|\bhelm\s+(?:upgrade|install)\b|\bterraform\s+apply\b|\bnetlify\s+deploy\b.*--prod|\bmake\s+(?:release|deploy|publish)\b",
    )
});
static TEST_RUN: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"\b(?:cargo\s+(?:test|nextest)|go\s+test|pytest|py\.test|python3?\s+-m\s+(?:pytest|unittest)|(?:npm|pnpm|yarn|bun)(?:\s+-{1,2}[\w-]+(?:[ =][^\s-]\S*)?)*\s+(?:run\s+)?test|npx\s+(?:jest|vitest|mocha|playwright\s+test)|jest|vitest|mocha|hardhat\s+test|forge\s+test|deno\s+test|swift\s+test|zig\s+build\s+test|make\s+(?:test|check)|mvn\s+(?:test|verify)|gradlew?\s+test|mix\s+test|rspec|phpunit|dotnet\s+test|ctest|tox)\b",
    )
});
/// A check other than tests: a linter, a type checker, a formatter check.
static CHECK_RUN: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"\b(?:(?:npm|pnpm|yarn|bun)(?:\s+-{1,2}[\w-]+(?:[ =][^\s-]\S*)?)*\s+(?:run\s+)?(?:lint|typecheck|type-check|check-types|check|tsc)\b|cargo\s+(?:clippy|fmt\s+--check|check)\b|ruff\s+check|eslint|tsc\s+--noEmit|go\s+vet|golangci-lint\s+run|mypy|pyright|make\s+lint)",
    )
});

static SHELL_CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?:^|[;&|]\s*)(?:sudo\s+)?(?:sed\s+-i|perl\s+-p?i|mv|rm|cp|mkdir|touch|ln|chmod|patch|tee)\s|\bgit\s+(?:mv|rm|apply|am|cherry-pick|merge)\b|\b(?:npm|pnpm|yarn|bun)\s+(?:add|install|i|uninstall|remove)\s+\S|\bcargo\s+(?:add|remove)\b|\bgo\s+get\b|\bpoetry\s+add\b|\buv\s+add\b|[^>&0-9]>>?\s*[\w./~-]+",
    )
});

static REVERT: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"\bgit\s+(?:revert\b|checkout\s+(?:\S+\s+)?--\s|checkout\s+\.\s*$|restore\b|reset\s+--hard\b|stash\s+drop\b)",
    )
});

/// The subjects of the commits a command made: the one the converter read
/// (here-documents and message files included), else `-m` on its first line.
fn commit_subjects(tool: &ToolUse, command: &str) -> Vec<String> {
    if let Some(subject) = &tool.commit {
        return vec![subject.clone()];
    }
    COMMIT_MESSAGE
        .captures_iter(command)
        .filter_map(|caps| {
            let message = caps.get(1).or(caps.get(2)).or(caps.get(3)).map_or("", |m| m.as_str());
            let subject = message.lines().next().unwrap_or("").trim();
            // A message that the shell substitutes (`"$(cat <<'EOF'`) is not
            // the message: without the converter's reading it is unknown.
            (!subject.is_empty() && !subject.starts_with('$')).then(|| subject.to_string())
        })
        .collect()
}

/// The part of a command that runs a check, without what surrounds it
/// (`cd app &&`, `2>&1 | tail -20`), or `None` for a compound the check
/// cannot be cut out of.
fn check_command(command: &str) -> Option<String> {
    // The check must be the program the segment runs, not a word in its
    // arguments (`cat eslint.config.js`).
    let runs = |p: &str| {
        let p = p.trim_start_matches(|c: char| c.is_whitespace() || c == '(');
        let p = p.strip_prefix("npx ").or_else(|| p.strip_prefix("pnpm exec ")).unwrap_or(p);
        [&*TEST_RUN, &*CHECK_RUN].iter().any(|rx| rx.find(p).is_some_and(|m| m.start() == 0))
    };
    let part = command.split("&&").map(str::trim).find(|p| runs(p))?;
    let part = part.split(['|', ';']).next()?.trim();
    let part = part.trim_end_matches("2>&1").trim();
    (part.len() <= 120 && !part.contains('`') && !part.contains("$(")).then(|| part.to_string())
}

/// The branch a push's arguments name: the refspec's destination
/// (`HEAD:main`, `feature:release`) or the branch itself; `None` when the
/// push names none (`git push`, `git push origin`) or pushes tags only.
fn push_target(args: &str) -> Option<String> {
    let words: Vec<&str> = args.split_whitespace().filter(|w| !w.starts_with('-')).collect();
    let refspec = words.get(1)?;
    let dest = refspec.rsplit(':').next().unwrap_or(refspec).trim_start_matches('+');
    let dest = dest.strip_prefix("refs/heads/").unwrap_or(dest);
    let tag = dest.starts_with("refs/tags/")
        || dest.trim_start_matches('v').split('.').take(2).filter(|p| p.parse::<u32>().is_ok()).count() == 2;
    (!dest.is_empty() && dest != "HEAD" && !tag).then(|| dest.to_string())
}

fn is_main(branch: &str) -> bool {
    matches!(branch, "main" | "master" | "trunk")
}

/// Whether a call changed files through the shell (`rm`, `mv`, `sed -i`, a
/// redirect into a file).
pub fn changes_by_shell(tool: &ToolUse) -> bool {
    tool.command.as_deref().is_some_and(|c| SHELL_CHANGE.is_match(c) && !c.contains("/dev/null"))
}

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
        let mut read = HashSet::new();
        let mut plan = None;
        let mut branch: Option<String> = None;
        let mut checks: Vec<(String, bool)> = Vec::new();
        for tool in &input.tools {
            evidence.note_files(tool, &mut seen, &mut read);
            if !tool.todos.is_empty() {
                plan = Some(&tool.todos);
                evidence.plan_at = Some(tool.after_turns);
            }
            let Some(command) = tool.command.as_deref() else { continue };
            let marked = |m: Mark| tool.marks.contains(&m);
            // A chain that failed may still have committed: git said so.
            let committed = marked(Mark::Committed) || (!tool.failed && !marked(Mark::NothingToCommit));
            if committed {
                for subject in commit_subjects(tool, command) {
                    if !evidence.commits.contains(&subject) {
                        evidence.commits.push(subject);
                    }
                }
            }
            if let Some(caps) = SWITCH.captures(command).filter(|_| !tool.failed) {
                branch = Some(caps["branch"].to_string());
            }
            let pushed = !tool.failed && !marked(Mark::PushRejected) && !marked(Mark::NothingPushed);
            for caps in PUSH.captures_iter(command).filter(|_| pushed) {
                let target = push_target(&caps["args"]).or_else(|| branch.clone());
                evidence.pushed_main |= target.as_deref().is_some_and(is_main);
                evidence.pushes.push(target);
            }
            evidence.pushed_main |= MERGE_MAIN.is_match(command) && !tool.failed;
            if !tool.failed {
                evidence.note_succeeded_command(command);
            }
            if let Some(check) = check_command(command) {
                // A check counts by its last run: one that failed and then
                // passed is a check of the project all the same.
                checks.retain(|(c, _)| c != &check);
                checks.push((check, !tool.failed));
            }
            if TEST_RUN.is_match(command) {
                evidence.tests_failed = tool.failed;
                evidence.test_run_passed = !tool.failed;
                evidence.tested |= !evidence.changed.is_empty() && !tool.failed;
            }
            if REVERT.is_match(command) && !evidence.changed.is_empty() && !tool.failed {
                evidence.reverted = true;
            }
        }
        evidence.checks = checks.into_iter().filter(|(_, passed)| *passed).map(|(c, _)| c).collect();
        for todo in plan.into_iter().flatten() {
            match todo.status {
                TodoStatus::Completed => evidence.done_todos.push(todo.text.clone()),
                TodoStatus::Pending | TodoStatus::InProgress => evidence.open_todos.push(todo.text.clone()),
            }
        }
        evidence
    }

    /// Notes the files a call touched: the ones it wrote (changed, and
    /// created when it made a file not read before) or else the ones it read.
    fn note_files(&mut self, tool: &ToolUse, seen: &mut HashSet<String>, read: &mut HashSet<String>) {
        // A shell command's files are the ones its redirections wrote.
        let wrote = modifies(&tool.name) || (tool.command.is_some() && !tool.files.is_empty());
        if wrote && !tool.failed {
            let creates = tool.name.eq_ignore_ascii_case("write") || tool.name.eq_ignore_ascii_case("create");
            for file in &tool.files {
                if seen.insert(file.clone()) {
                    self.changed.push(file.clone());
                    if creates && !read.contains(file) {
                        self.created.push(file.clone());
                    }
                }
                if is_test_file(file) {
                    self.tested = true;
                }
            }
        } else {
            read.extend(tool.files.iter().cloned());
        }
    }

    /// Notes what a shell command that succeeded did: the tags it made, the
    /// issues it closed, whether it changed files or released.
    fn note_succeeded_command(&mut self, command: &str) {
        for caps in TAG.captures_iter(command) {
            let tag = caps[1].to_string();
            if !self.tags.contains(&tag) {
                self.tags.push(tag);
            }
        }
        for caps in CLOSE_ISSUE.captures_iter(command) {
            let ids = caps.name("bd").or(caps.name("upd")).or(caps.name("gh")).map_or("", |m| m.as_str());
            for id in ids.split_whitespace().filter(|w| !w.starts_with('-')) {
                let id = if caps.name("gh").is_some() { format!("#{id}") } else { id.to_string() };
                if !self.closed_issues.contains(&id) {
                    self.closed_issues.push(id);
                }
            }
        }
        self.shell_changed |= SHELL_CHANGE.is_match(command) && !command.contains("/dev/null");
        self.released |= RELEASE.is_match(command);
    }

    /// Whether the session did anything beyond talking: changed a file,
    /// committed, tagged, pushed or released.
    pub fn acted(&self) -> bool {
        !self.changed.is_empty()
            || self.shell_changed
            || !self.commits.is_empty()
            || !self.tags.is_empty()
            || !self.pushes.is_empty()
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
            model_failed_last: false,
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
        assert_eq!(e.pushes, [Some("feature/x".to_string())]);
        let unknown = of(vec![shell("git push")]);
        assert!(!unknown.pushed_main && unknown.pushes == [None], "a push that names no branch is not to main");
        assert!(of(vec![shell("git checkout -b main"), shell("git push")]).pushed_main, "the branch switched to");
        assert!(of(vec![shell("git push origin HEAD:main")]).pushed_main);
        assert_eq!(of(vec![shell("git push origin v1.2.0")]).pushes, [None], "a tag is no branch");
    }

    #[test]
    fn tests_count_after_a_change_and_reverts_after_work() {
        assert!(!of(vec![shell("cargo test")]).tested, "a test run before any change proves no fix");
        assert!(of(vec![edit("src/a.rs"), shell("cargo test -p a")]).tested);
        for run in ["npx hardhat test 2>&1", "forge test -vv", "deno test", "swift test", "npx mocha"] {
            let seen = of(vec![edit("src/a.rs"), shell(run)]);
            assert!(seen.tested && seen.test_run_passed, "{run}");
        }
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
