//! Private key blocks are redacted whole across lines, including blocks cut
//! off before their END line; public keys stay.

use crate::common::*;
use lcmem_redact::redact;

#[test]
fn complete_blocks_of_every_label() {
    for (i, label) in ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "].iter().enumerate() {
        let block = pem(label, 10 * i as u64, 5, true);
        let text = format!("key follows:\n{block}\nand then prose.");
        let out = redact(&text);
        assert_eq!(out, "key follows:\n[REDACTED:private-key]\nand then prose.", "label {label:?}");
    }
}

#[test]
fn pgp_block_with_checksum_line() {
    let body = fake(1, B64, 64);
    let kind = "PGP PRIVATE KEY BLOCK";
    let text = format!("{}\n\n{body}\n={}\n{}", armour("BEGIN", kind), fake(2, B64, 4), armour("END", kind));
    assert_redacted(&text, &body, "private-key");
    assert_eq!(redact(&text), "[REDACTED:private-key]");
}

#[test]
fn truncated_block_is_redacted_through_its_last_body_line() {
    let block = pem("RSA ", 3, 4, false);
    let last_line = block.lines().last().unwrap().to_string();
    let text = format!("$ cat id_rsa\n{block}");
    let out = assert_redacted(&text, &last_line, "private-key");
    assert_eq!(out, "$ cat id_rsa\n[REDACTED:private-key]\n");
    // Cut mid-line, at the very end of the input.
    let cut = &text[..text.len() - 30];
    let out = redact(cut);
    assert_eq!(out, "$ cat id_rsa\n[REDACTED:private-key]");
    // A BEGIN line alone is still redacted.
    assert_eq!(redact(&armour("BEGIN", "EC PRIVATE KEY")), "[REDACTED:private-key]");
}

#[test]
fn truncated_block_stops_at_prose() {
    let block = pem("", 4, 3, false);
    let text = format!("{block}The paste above was cut off.\nNext step: rotate it.");
    let out = redact(&text);
    assert_eq!(out, "[REDACTED:private-key]\nThe paste above was cut off.\nNext step: rotate it.");
}

#[test]
fn encrypted_block_with_headers() {
    let body = fake(5, B64, 64);
    let text = format!(
        "{}\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,{}\n\n{body}\n{}\n",
        armour("BEGIN", "RSA PRIVATE KEY"),
        fake(6, HEX, 32).to_uppercase(),
        fake(7, B64, 40)
    );
    let out = assert_redacted(&text, &body, "private-key");
    assert_eq!(out, "[REDACTED:private-key]\n");
}

#[test]
fn escaped_block_inside_json() {
    let body = format!("{}\\n{}", fake(8, B64, 64), fake(9, B64, 64));
    let (begin, end) = (armour("BEGIN", "PRIVATE KEY"), armour("END", "PRIVATE KEY"));
    let text = format!(
        "{{\"type\": \"service_account\", \"private_key\": \"{begin}\\n{body}\\n{end}\\n\", \"client_email\": \"svc@proj.test\"}}"
    );
    let out = assert_redacted(&text, &body, "private-key");
    assert!(out.contains("\"client_email\": \"svc@proj.test\""), "{out}");
    // Truncated inside the JSON string.
    let cut = &text[..text.find(&format!("\\n{end}")).unwrap()];
    assert_redacted(cut, &body[..60], "private-key");
}

#[test]
fn public_keys_and_certificates_stay() {
    let body = (0..6).map(|i| fake(20 + i, B64, 64)).collect::<Vec<_>>().join("\n");
    for label in ["PUBLIC KEY", "CERTIFICATE"] {
        assert_kept(&format!("{}\n{body}\n{}\n", armour("BEGIN", label), armour("END", label)));
    }
}

#[test]
fn placeholder_block_in_docs_stays() {
    let (begin, end) = (armour("BEGIN", "PRIVATE KEY"), armour("END", "PRIVATE KEY"));
    assert_kept(&format!("{begin}\n...\n{end}"));
    assert_kept(&format!("{begin}\n<paste your key here>\n{end}"));
}
