//! `lcmem install` then `lcmem uninstall` leave the user's files exactly as
//! they were: byte for byte when nothing else changed, and only lcmem's
//! entries gone when something did; project files name `lcmem`, never a
//! machine path; Codex gets the store and the hooks setting it reads now.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use crate::common::{NOW, Sandbox, files_under, lcmem_bin};

/// A folder for PATH: a fake `codex` reporting `codex_version` (none when
/// `None`), and this build's `lcmem` when `with_lcmem`.
fn bin_dir(sandbox: &Sandbox, codex_version: Option<&str>, with_lcmem: bool) -> PathBuf {
    let bin = sandbox.dir.path().join("bin");
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).unwrap();
    if let Some(version) = codex_version {
        let codex = bin.join("codex");
        std::fs::write(&codex, format!("#!/bin/sh\necho 'codex-cli {version}'\n")).unwrap();
        std::fs::set_permissions(&codex, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    if with_lcmem {
        std::os::unix::fs::symlink(lcmem_bin(), bin.join("lcmem")).unwrap();
    }
    bin
}

fn user_home(sandbox: &Sandbox) -> PathBuf {
    sandbox.dir.path().join("user")
}

/// `lcmem --home … <args>` with HOME, CLAUDE_CONFIG_DIR and CODEX_HOME in the
/// sandbox and PATH = `bin` alone.
fn lcmem(sandbox: &Sandbox, bin: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(lcmem_bin());
    cmd.arg("--home").arg(sandbox.home()).args(args).env("PATH", bin);
    cmd.env("HOME", user_home(sandbox)).env("CLAUDE_CONFIG_DIR", user_home(sandbox).join(".claude"));
    cmd.env("CODEX_HOME", user_home(sandbox).join(".codex")).env("LCMEM_NOW", NOW).env_remove("LEVELCODE_HOME");
    cmd
}

fn out(assert: assert_cmd::assert::Assert) -> (String, String) {
    let output = assert.get_output();
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn no_backup_under(dir: &Path) {
    let backups: Vec<PathBuf> =
        files_under(dir).into_iter().filter(|p| p.to_string_lossy().contains("lcmem-backup")).collect();
    assert!(backups.is_empty(), "backups left behind: {backups:?}");
}

/// Claude Code's settings.json in awkward shapes: keys out of order, numbers
/// a reparse would respell, empty objects and arrays, one-line arrays, CRLF,
/// no final newline.
const CLAUDE_SETTINGS: [&str; 3] = [
    "{\n  \"zeta\": 1e3,\n  \"alpha\": 49.699999999999996,\n  \"hooks\": {},\n  \"permissions\": {\"allow\": [\"Bash(ls)\", \"Read\"]},\n  \"empty\": {}\n}",
    "{\"model\":\"opus\",\"hooks\":{\"Stop\":[]},\"n\":-0.0}",
    "{\r\n    \"b\": [ 1, 2 ],\r\n    \"a\": 1E+2,\r\n    \"hooks\": {\r\n        \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\r\n    }\r\n}\r\n",
];
const CLAUDE_JSON: [&str; 3] = [
    "{\n  \"numStartups\": 7,\n  \"theme\": \"dark\",\n  \"later1\": 49.699999999999996,\n  \"later2\": {}\n}\n",
    "{\"numStartups\": 7, \"mcpServers\": {}, \"tips\": [1, 2, 3]}",
    "{\r\n  \"mcpServers\": {\r\n    \"db\": {\"command\": \"pg-mcp\", \"args\": []}\r\n  },\r\n  \"numStartups\": 7\r\n}\r\n",
];

#[test]
fn claude_code_install_then_uninstall_gives_back_the_users_bytes() {
    for (settings, servers) in CLAUDE_SETTINGS.iter().zip(CLAUDE_JSON) {
        let sandbox = Sandbox::new();
        let bin = bin_dir(&sandbox, None, false);
        let claude = user_home(&sandbox).join(".claude");
        write(&claude.join("settings.json"), settings);
        write(&claude.join(".claude.json"), servers);
        lcmem(&sandbox, &bin, &["install", "claude-code", "--command", "/opt/lcmem"]).assert().success();
        let installed = read(&claude.join("settings.json"));
        assert!(installed.contains("/opt/lcmem hook claude-code"), "{installed}");
        assert!(read(&claude.join(".claude.json")).contains("\"/opt/lcmem\""));
        // The user's own text is still there, spelled as they wrote it.
        for number in ["1e3", "49.699999999999996", "1E+2", "-0.0", "[ 1, 2 ]"] {
            assert_eq!(installed.contains(number), settings.contains(number), "{number} respelled: {installed}");
        }
        lcmem(&sandbox, &bin, &["uninstall", "claude-code"]).assert().success();
        assert_eq!(read(&claude.join("settings.json")), *settings);
        assert_eq!(read(&claude.join(".claude.json")), servers);
        no_backup_under(&user_home(&sandbox));
    }
}

#[test]
fn claude_code_uninstall_after_the_user_changed_something_takes_out_only_lcmem() {
    let sandbox = Sandbox::new();
    let bin = bin_dir(&sandbox, None, false);
    let claude = user_home(&sandbox).join(".claude");
    let (settings, servers) = (CLAUDE_SETTINGS[0], CLAUDE_JSON[0]);
    write(&claude.join("settings.json"), settings);
    write(&claude.join(".claude.json"), servers);
    lcmem(&sandbox, &bin, &["install", "claude-code", "--command", "/opt/lcmem"]).assert().success();
    // Claude Code counts a start; the user adds a setting of their own.
    let edit = |path: &Path, from: &str, to: &str| {
        let text = read(path);
        assert!(text.contains(from), "{text}");
        write(path, &text.replacen(from, to, 1));
    };
    edit(&claude.join(".claude.json"), "\"numStartups\": 7", "\"numStartups\": 8");
    edit(&claude.join("settings.json"), "\"zeta\": 1e3,", "\"zeta\": 1e3,\n  \"model\": \"opus\",");
    lcmem(&sandbox, &bin, &["uninstall", "claude-code"]).assert().success();
    assert_eq!(read(&claude.join(".claude.json")), servers.replacen("\"numStartups\": 7", "\"numStartups\": 8", 1));
    assert_eq!(
        read(&claude.join("settings.json")),
        settings.replacen("\"zeta\": 1e3,", "\"zeta\": 1e3,\n  \"model\": \"opus\",", 1)
    );
    no_backup_under(&user_home(&sandbox));
}

#[test]
fn project_scope_writes_lcmem_from_path_and_uninstall_leaves_the_project_as_it_was() {
    for agent in ["claude-code", "codex", "cursor"] {
        let sandbox = Sandbox::new();
        let project = sandbox.project();
        write(&project.join("README.md"), "# shop\n");
        let bin = bin_dir(&sandbox, Some("0.171.0"), true);
        let p = project.to_str().unwrap();
        let (stdout, _) = out(lcmem(&sandbox, &bin, &["--project", p, "install", agent]).assert().success());
        assert!(stdout.contains("`lcmem` from PATH"), "{agent}: {stdout}");
        let made: Vec<PathBuf> = files_under(&project).into_iter().filter(|f| !f.ends_with("README.md")).collect();
        assert!(!made.is_empty(), "{agent}: nothing written");
        for file in &made {
            let text = read(file);
            assert!(text.contains("lcmem"), "{}: {text}", file.display());
            for machine in [lcmem_bin(), sandbox.home(), sandbox.dir.path().to_path_buf()] {
                assert!(!text.contains(machine.to_str().unwrap()), "{}: a machine path: {text}", file.display());
            }
        }
        if agent == "codex" {
            let config = read(&project.join(".codex/config.toml"));
            assert!(
                config.contains("env_vars = [\"LEVELCODE_HOME\"]"),
                "the store does not reach the server: {config}"
            );
            assert!(stdout.contains("start Codex with LEVELCODE_HOME set"), "{stdout}");
        }
        lcmem(&sandbox, &bin, &["--project", p, "uninstall", agent]).assert().success();
        assert_eq!(files_under(&project), vec![project.join("README.md")], "{agent}");
        let dirs: Vec<_> = std::fs::read_dir(&project).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(dirs, vec![std::ffi::OsString::from("README.md")], "{agent}: a folder lcmem made was left");
    }
}

#[test]
fn project_scope_install_then_uninstall_gives_back_the_projects_bytes() {
    let cursor = "{\n\t\"mcpServers\": {}, \"x\": [ ]\n}";
    let files: [(&str, &[(&str, &str)]); 3] = [
        ("claude-code", &[(".claude/settings.json", CLAUDE_SETTINGS[2]), (".mcp.json", CLAUDE_JSON[1])]),
        ("codex", &[(".codex/config.toml", CODEX_CONFIG[0]), (".codex/hooks.json", CODEX_HOOKS[1])]),
        ("cursor", &[(".cursor/mcp.json", cursor)]),
    ];
    for (agent, files) in files {
        let sandbox = Sandbox::new();
        let project = sandbox.project();
        for (name, text) in files {
            write(&project.join(name), text);
        }
        let bin = bin_dir(&sandbox, Some("0.171.0"), true);
        let p = project.to_str().unwrap();
        lcmem(&sandbox, &bin, &["--project", p, "install", agent]).assert().success();
        for (name, text) in files {
            let now = read(&project.join(name));
            assert!(now != *text && now.contains("lcmem"), "{agent}: {name} unchanged: {now}");
            for machine in [lcmem_bin(), sandbox.dir.path().to_path_buf()] {
                assert!(!now.contains(machine.to_str().unwrap()), "{agent}: a machine path in {name}: {now}");
            }
        }
        lcmem(&sandbox, &bin, &["--project", p, "uninstall", agent]).assert().success();
        for (name, text) in files {
            assert_eq!(read(&project.join(name)), *text, "{agent}: {name}");
        }
        assert_eq!(files_under(&project).len(), files.len(), "{agent}: {:?}", files_under(&project));
    }
}

#[test]
fn project_scope_warns_when_lcmem_is_not_on_path_and_keeps_the_users_folders() {
    let sandbox = Sandbox::new();
    let project = sandbox.project();
    write(&project.join(".claude/settings.local.json"), "{}");
    let bin = bin_dir(&sandbox, None, false);
    let p = project.to_str().unwrap();
    let (_, stderr) = out(lcmem(&sandbox, &bin, &["--project", p, "install", "claude-code"]).assert().success());
    assert!(stderr.contains("`lcmem` is not on PATH"), "{stderr}");
    lcmem(&sandbox, &bin, &["--project", p, "uninstall", "claude-code"]).assert().success();
    assert_eq!(files_under(&project), vec![project.join(".claude/settings.local.json")]);
}

/// Codex's files as a user keeps them: comments, CRLF, no final newline.
const CODEX_CONFIG: [&str; 3] = [
    "# my Codex settings\r\nmodel = \"gpt-5-codex\"\r\n\r\n[mcp_servers.db]\r\ncommand = \"pg-mcp\" # the database\r\nargs = [\"--ro\"]\r\n\r\n[features]\r\nweb_search = true",
    "model = \"o3\"   # fast\n\n# servers below\n[mcp_servers.db]\ncommand = \"pg-mcp\"\n",
    "",
];
const CODEX_HOOKS: [&str; 3] = [
    "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"say done\"}]}]},\"x\":1e3}",
    "{\n  \"hooks\": {}\n}\n",
    "{}",
];

fn toml_of(path: &Path) -> toml::Table {
    read(path).parse().unwrap()
}

#[test]
fn codex_install_then_uninstall_gives_back_the_users_bytes() {
    for (config, hooks) in CODEX_CONFIG.iter().zip(CODEX_HOOKS) {
        let sandbox = Sandbox::new();
        let bin = bin_dir(&sandbox, Some("0.171.0"), false);
        let codex = user_home(&sandbox).join(".codex");
        write(&codex.join("config.toml"), config);
        write(&codex.join("hooks.json"), hooks);
        let (stdout, _) =
            out(lcmem(&sandbox, &bin, &["install", "codex", "--command", "/opt/lcmem"]).assert().success());
        let toml = toml_of(&codex.join("config.toml"));
        assert_eq!(toml["features"]["hooks"].as_bool(), Some(true), "{config}");
        assert!(toml["features"].get("codex_hooks").is_none(), "the deprecated switch was written");
        let home = sandbox.home().to_str().unwrap().to_string();
        let args: Vec<&str> =
            toml["mcp_servers"]["lcmem"]["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        assert_eq!(args, ["--home", home.as_str(), "mcp"], "the store does not reach the MCP server");
        assert!(read(&codex.join("hooks.json")).contains(&format!("/opt/lcmem --home {home} hook codex")));
        assert!(stdout.contains("trust") && stdout.contains("--dangerously-bypass-hook-trust"), "{stdout}");
        lcmem(&sandbox, &bin, &["uninstall", "codex"]).assert().success();
        assert_eq!(read(&codex.join("config.toml")), *config);
        assert_eq!(read(&codex.join("hooks.json")), hooks);
        no_backup_under(&user_home(&sandbox));
    }
}

#[test]
fn codex_uninstall_after_the_user_changed_something_takes_out_only_lcmem() {
    let sandbox = Sandbox::new();
    let bin = bin_dir(&sandbox, Some("0.171.0"), false);
    let codex = user_home(&sandbox).join(".codex");
    write(&codex.join("config.toml"), CODEX_CONFIG[0]);
    write(&codex.join("hooks.json"), CODEX_HOOKS[0]);
    lcmem(&sandbox, &bin, &["install", "codex", "--command", "/opt/lcmem"]).assert().success();
    let edited = read(&codex.join("config.toml")).replacen("gpt-5-codex", "o3", 1);
    write(&codex.join("config.toml"), &edited);
    lcmem(&sandbox, &bin, &["uninstall", "codex"]).assert().success();
    assert_eq!(read(&codex.join("config.toml")), CODEX_CONFIG[0].replacen("gpt-5-codex", "o3", 1));
    assert_eq!(read(&codex.join("hooks.json")), CODEX_HOOKS[0]);
    no_backup_under(&user_home(&sandbox));
}

#[test]
fn codex_uninstall_takes_out_the_trust_codex_recorded_for_lcmems_hooks() {
    for users_own in [false, true] {
        let sandbox = Sandbox::new();
        let bin = bin_dir(&sandbox, Some("0.171.0"), false);
        let codex = user_home(&sandbox).join(".codex");
        write(&codex.join("config.toml"), CODEX_CONFIG[1]);
        write(&codex.join("hooks.json"), CODEX_HOOKS[0]);
        lcmem(&sandbox, &bin, &["install", "codex", "--command", "/opt/lcmem"]).assert().success();
        // What Codex writes when the user trusts the hooks: lcmem's SessionStart is group 0, its Stop group 1
        // (the user's own Stop hook is group 0).
        let key = |event: &str, group: usize| format!("{}:{event}:{group}:0", codex.join("hooks.json").display());
        let table = |key: String, hash: &str| format!("\n[hooks.state.\"{key}\"]\ntrusted_hash = \"sha256:{hash}\"\n");
        let users = table(key("stop", 0), "user");
        let mut text = read(&codex.join("config.toml"));
        text += &table(key("session_start", 0), "aaa");
        text += &table(key("stop", 1), "bbb");
        if users_own {
            text += &users;
        }
        write(&codex.join("config.toml"), &text);
        lcmem(&sandbox, &bin, &["uninstall", "codex"]).assert().success();
        let expected = if users_own { format!("{}{users}", CODEX_CONFIG[1]) } else { CODEX_CONFIG[1].to_string() };
        assert_eq!(read(&codex.join("config.toml")), expected);
        no_backup_under(&user_home(&sandbox));
    }
}

#[test]
fn codex_gets_the_hooks_switch_its_version_reads() {
    // Codex 0.130.0 renamed [features].codex_hooks to hooks; an older Codex reads only the old name.
    for (version, key, other) in [(Some("0.125.0"), "codex_hooks", "hooks"), (None, "hooks", "codex_hooks")] {
        let sandbox = Sandbox::new();
        let bin = bin_dir(&sandbox, version, false);
        lcmem(&sandbox, &bin, &["install", "codex", "--command", "/opt/lcmem"]).assert().success();
        let config = user_home(&sandbox).join(".codex/config.toml");
        let toml = toml_of(&config);
        assert_eq!(toml["features"][key].as_bool(), Some(true), "{version:?}: {toml:?}");
        assert!(toml["features"].get(other).is_none(), "{version:?}: {toml:?}");
        lcmem(&sandbox, &bin, &["uninstall", "codex"]).assert().success();
        assert!(!config.exists() && !user_home(&sandbox).join(".codex").exists(), "{version:?}");
    }
}

#[test]
fn cursor_install_then_uninstall_gives_back_the_users_bytes() {
    let sandbox = Sandbox::new();
    let bin = bin_dir(&sandbox, None, false);
    let mcp = user_home(&sandbox).join(".cursor/mcp.json");
    let users = "{\r\n\t\"mcpServers\": {\r\n\t\t\"github\": {\"command\": \"gh-mcp\", \"env\": {}}\r\n\t},\r\n\t\"z\": 0.1e-5\r\n}";
    write(&mcp, users);
    lcmem(&sandbox, &bin, &["install", "cursor", "--command", "/opt/lcmem"]).assert().success();
    assert!(read(&mcp).contains("\"/opt/lcmem\"") && read(&mcp).contains("0.1e-5"));
    lcmem(&sandbox, &bin, &["uninstall", "cursor"]).assert().success();
    assert_eq!(read(&mcp), users);
    no_backup_under(&user_home(&sandbox));
    // Changed since install: only lcmem's entry goes.
    lcmem(&sandbox, &bin, &["install", "cursor", "--command", "/opt/lcmem"]).assert().success();
    write(&mcp, &read(&mcp).replacen("0.1e-5", "2", 1));
    lcmem(&sandbox, &bin, &["uninstall", "cursor"]).assert().success();
    assert_eq!(read(&mcp), users.replacen("0.1e-5", "2", 1));
    no_backup_under(&user_home(&sandbox));
}

#[test]
fn codex_uninstall_where_lcmem_is_not_changes_nothing() {
    // The user's own switch, an empty [features] and trust of their own: not lcmem's to take out.
    let sandbox = Sandbox::new();
    let bin = bin_dir(&sandbox, Some("0.171.0"), false);
    let codex = user_home(&sandbox).join(".codex");
    let config = "[features]\nhooks = true\n\n[hooks.state.\"x:stop:0:0\"]\ntrusted_hash = \"sha256:1\"\n";
    for (config, hooks) in [(config, "{\"hooks\": {}}"), ("[features]\n", "{}")] {
        write(&codex.join("config.toml"), config);
        write(&codex.join("hooks.json"), hooks);
        let (stdout, _) = out(lcmem(&sandbox, &bin, &["uninstall", "codex"]).assert().success());
        assert_eq!(stdout.matches("unchanged").count(), 2, "{stdout}");
        assert_eq!(read(&codex.join("config.toml")), config);
        assert_eq!(read(&codex.join("hooks.json")), hooks);
    }
}
