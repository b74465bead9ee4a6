//! What the pages promise beyond the browser test: the forget listing names
//! what forget then removes, the settings switch memory off and on, undo
//! shows what it changes before it does.

use super::{FORGET_SESSION, Server, lcmem, store};

fn post(server: &Server, path: &str, fields: &str) -> u16 {
    let body = format!("csrf={}&back=%2F&{fields}", server.csrf());
    let origin = format!("http://127.0.0.1:{}", server.port);
    server.request("POST", path, &[("Cookie", &server.cookie()), ("Origin", &origin)], &body).0
}

#[test]
fn the_forget_listing_names_what_forget_removes() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    let facts_before: Vec<serde_json::Value> =
        serde_json::from_str(&lcmem(&sandbox, &["facts", "--all", "--json"])).unwrap();
    let sole: Vec<&serde_json::Value> = facts_before
        .iter()
        .filter(|f| {
            f["sources"].as_array().is_some_and(|s| !s.is_empty() && s.iter().all(|s| s["session"] == FORGET_SESSION))
        })
        .collect();
    assert!(!sole.is_empty(), "the session alone supports some fact");
    let (status, page) = server.get(&format!("/sessions/{FORGET_SESSION}/forget"));
    assert_eq!(status, 200);
    assert!(page.contains(&format!("{} fact(s) only it supports", sole.len())), "{page}");
    for fact in &sole {
        assert!(page.contains(fact["id"].as_str().unwrap()), "{fact} is listed");
    }
    assert!(page.contains(&format!("{FORGET_SESSION}.jsonl")), "the transcript is listed");
    assert!(lcmem(&sandbox, &["sessions"]).contains(FORGET_SESSION), "looking changed nothing");

    assert_eq!(post(&server, &format!("/sessions/{FORGET_SESSION}/forget"), ""), 303);
    let facts_after = lcmem(&sandbox, &["facts", "--all", "--json"]);
    for fact in &sole {
        assert!(!facts_after.contains(fact["id"].as_str().unwrap()), "{fact} is gone");
    }
    assert!(!sandbox.store_dir().join(format!("{FORGET_SESSION}.jsonl")).exists());
    let (_, page) = server.get("/sessions");
    assert!(page.contains(&format!("forgot {FORGET_SESSION}")), "the page says what it did");
}

#[test]
fn settings_switch_memory_and_undo_shows_its_change_first() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    assert_eq!(post(&server, "/settings/memory", "scope=project&enabled=false"), 303);
    assert_eq!(lcmem(&sandbox, &["config", "get", "memory.enabled"]).trim(), "false");
    let (_, page) = server.get("/");
    assert!(page.contains("Memory is off for this project"), "{page}");
    assert_eq!(post(&server, "/settings/memory", "scope=project&enabled=true"), 303);
    assert_eq!(lcmem(&sandbox, &["config", "get", "memory.enabled"]).trim(), "true");

    // A consolidation after a new fact: undo would take the fact's line out again.
    lcmem(&sandbox, &["facts", "add", "The staging database is reset every Monday."]);
    assert_eq!(post(&server, "/settings/consolidate", ""), 303);
    assert!(lcmem(&sandbox, &["digest"]).contains("reset every Monday"));
    let (_, page) = server.get("/settings");
    let preview = &page[page.find("id=\"undo-preview\"").unwrap()..];
    let goes = &preview[..preview.find("Lines that come back").unwrap()];
    assert!(goes.contains("The staging database is reset every Monday."), "{preview}");
    assert!(lcmem(&sandbox, &["digest"]).contains("reset every Monday"), "the preview changed nothing");
    assert_eq!(post(&server, "/settings/undo", ""), 303);
    assert!(!lcmem(&sandbox, &["digest"]).contains("reset every Monday"), "undone");
    let (_, page) = server.get("/");
    assert!(page.contains("restored MEMORY.md from"), "{page}");
}

#[test]
fn the_facts_page_adds_a_fact_for_every_project() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    assert_eq!(post(&server, "/facts/add", "text=I+use+pnpm+everywhere.&every=1"), 303);
    let theirs = lcmem(&sandbox, &["facts", "--user", "--json"]);
    assert!(theirs.contains("I use pnpm everywhere."), "{theirs}");
    assert!(!lcmem(&sandbox, &["facts", "--json", "--all"]).contains("pnpm"), "it is not the project's");
    let (_, page) = server.get("/facts");
    assert!(page.contains("Yours, for every project (1)") && page.contains("I use pnpm everywhere."), "{page}");
    assert!(lcmem(&sandbox, &["digest"]).contains("I use pnpm everywhere."), "the digest shows it at once");
}
