use super::*;

fn facts(text: &str) -> Vec<(String, bool)> {
    let at = Place { origin: Origin::User, final_report: false, order: 0 };
    candidates(text, None, at).into_iter().map(|c| (c.text, c.convention)).collect()
}

fn texts(text: &str) -> Vec<String> {
    facts(text).into_iter().map(|(t, _)| t).collect()
}

#[test]
fn rules_and_statements_in_a_persons_words_are_facts_and_rules_are_conventions() {
    assert_eq!(
        facts("Deploys go out from tags only. We use Conventional Commits."),
        [("Deploys go out from tags only.".to_string(), true), ("We use Conventional Commits.".to_string(), true)]
    );
    assert_eq!(
        facts("we use pnpm in this repo, never npm"),
        [("We use pnpm in this repo, never npm.".to_string(), true)],
        "written in lower case and without a full stop, still a whole sentence"
    );
    assert_eq!(
        texts("Our deploys go out on Fridays only after the staging smoke test passes."),
        ["Our deploys go out on Fridays only after the staging smoke test passes."]
    );
    assert_eq!(
        texts("When a king is under check, that player can still move their other pieces. Being in check has no other effect than the overlay."),
        ["Being in check has no other effect than the overlay."],
        "what 'still' says of that day is not kept; the rule after it is"
    );
}

#[test]
fn a_request_framed_as_a_rule_of_the_product_is_the_rule() {
    assert_eq!(
        texts("Make it so each piece has a cooldown of 10 seconds as soon as you move it."),
        ["Each piece has a cooldown of 10 seconds as soon as you move it."]
    );
    assert_eq!(
        texts("Change the rule such that the game is lost when the king is captured."),
        ["The game is lost when the king is captured."]
    );
}

#[test]
fn questions_greetings_reactions_and_the_days_requests_are_no_facts() {
    for said in [
        "Hey",
        "Can you audit this codebase?",
        "Why do we need stats for the team?",
        "fix the login bug",
        "Let's remove the red highlight for taking",
        "undo the last change",
        "That's almost right.",
        "ok continue",
        "Nothing happens when I press new game.",
        "I'm getting:\n\nAccess to script at 'file:///x/app.js' from origin 'null' has been blocked by CORS policy.",
        "The drag and drop doesn't seem to be working.",
        "No teams or leads are loading into the pane now",
        // What the day brought, a count of the code, the day's plan.
        "The seed script chokes on fixtures/products.csv. Can you look?",
        "Merged and deployed, thanks.",
        "Tagged and released v1.0.4.",
        "src/orders/index.ts is 2,400 lines. Let's split it.",
        "Binary is 38MB, mostly aws sdk.",
        "We should start with packages/services.",
        "Carefully review implementation.",
        "Only when there's a retry in the log before it.",
    ] {
        assert_eq!(texts(said), Vec::<String>::new(), "{said}");
    }
}

#[test]
fn a_rule_that_names_trouble_to_rule_it_out_is_still_a_rule() {
    assert_eq!(
        texts("Sounds good. Only retry on 5xx and network errors, never on card errors."),
        ["Only retry on 5xx and network errors, never on card errors."]
    );
}

#[test]
fn a_statement_that_points_back_is_given_what_the_request_named() {
    assert_eq!(
        texts("Can you cleanup the auth page to remove the inital layout. it should be clean like shadcn examples"),
        ["The auth page should be clean like shadcn examples."]
    );
    assert_eq!(texts("It should be fast."), Vec::<String>::new(), "nothing says what 'it' is");
}

#[test]
fn an_answer_to_the_agents_question_is_worded_with_its_subject() {
    let at = Place { origin: Origin::User, final_report: false, order: 0 };
    let got = |q: &str, a: &str| candidates(a, Some(q), at).into_iter().map(|c| c.text).collect::<Vec<_>>();
    assert_eq!(
        got("Which scrolling approach would you like to implement?", "AI Elements components"),
        ["Scrolling approach: AI Elements components."]
    );
    assert_eq!(
        got(
            "What scroll behavior do you prefer when new messages arrive?",
            "Remove anything custom we have and use the ai elements approach"
        ),
        [
            "Scroll behavior when new messages arrive: the user chose to remove anything custom we have and use the \
             ai elements approach."
        ]
    );
    assert_eq!(got("Which one?", "ok"), Vec::<String>::new());
}

#[test]
fn chinese_and_korean_rules_and_statements_are_facts_and_their_requests_are_not() {
    assert_eq!(
        facts("我们使用 pnpm，不要用 npm。部署只在打 tag 时进行。请帮我修复登录的 bug。"),
        [
            ("我们使用 pnpm，不要用 npm。".to_string(), true),
            ("部署只在打 tag 时进行。".to_string(), true),
        ]
    );
    assert_eq!(
        facts("우리는 커밋 메시지에 Conventional Commits를 사용합니다. 로그인 버그를 고쳐 주세요. 왜 느린가요?"),
        [("우리는 커밋 메시지에 Conventional Commits를 사용합니다.".to_string(), true)]
    );
}
