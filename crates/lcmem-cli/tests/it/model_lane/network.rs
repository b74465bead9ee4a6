//! With `extract.lane = "offline"` (the default) nothing opens a network
//! connection: every command of a session's life runs under `strace`, which
//! records each socket the process and its children create. The same run
//! with a model lane pointed at a local server shows the connection, so the
//! check can see one when there is one.

use std::path::Path;
use std::process::Command;

use super::server::{Answer, Server};
use super::{answer, completion, configure, sandbox};
use crate::common::{Sandbox, strace};

/// Runs `lcmem ARGS` under strace and returns the socket calls it made that
/// reach past this process: internet sockets, and any connect at all.
fn sockets(strace: &str, sandbox: &Sandbox, args: &[&str], log: &Path) -> Vec<String> {
    let mut lcmem = sandbox.cmd();
    lcmem.args(args).env("LCMEM_TEST_LANE_KEY", "k");
    let out = Command::new(strace)
        .args(["-f", "-qq", "-e", "trace=socket,connect,sendto", "-o"])
        .arg(log)
        .arg(lcmem.get_program())
        .args(lcmem.get_args())
        .envs(lcmem.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .env_remove("LEVELCODE_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "lcmem {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains("AF_INET") || l.contains("connect("))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_offline_lane_opens_no_connection_and_a_model_lane_visibly_does() {
    let Some(strace) = strace() else { return };
    let server =
        Server::start(|_, _| Answer::ok(completion(&answer("Moved the cache.", "progress", &[]).to_string(), 9, 9)));
    // Settings that would reach the server, were a model lane chosen.
    let sandbox = sandbox(2, &[("extract.endpoint", &format!("{}/v1", server.base())), ("extract.model", "m")]);
    let log = sandbox.dir.path().join("strace.log");
    let steps: &[&[&str]] =
        &[&["seal", "s1"], &["seal", "--all"], &["consolidate"], &["digest"], &["recall", "cache"], &["journal"]];
    for args in steps {
        let seen = sockets(&strace, &sandbox, args, &log);
        assert!(seen.is_empty(), "`lcmem {}` opened a socket: {seen:?}", args.join(" "));
    }
    assert!(server.seen().is_empty());

    let other = super::sandbox(1, &[]);
    configure(
        &other,
        &[("extract.lane", "openai"), ("extract.endpoint", &format!("{}/v1", server.base())), ("extract.model", "m")],
    );
    let seen = sockets(&strace, &other, &["seal", "s1"], &log);
    assert!(seen.iter().any(|l| l.contains("connect(") && l.contains("AF_INET")), "strace saw no connection: {seen:?}");
    assert_eq!(server.seen().len(), 1);
}
