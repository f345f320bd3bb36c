#[test]
fn dump() {
    let path = std::env::var("TREE_FILE").unwrap();
    let src = std::fs::read(path).unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_cuda::LANGUAGE.into()).unwrap();
    let t = p.parse(&src, None).unwrap();
    fn go(n: tree_sitter::Node, src: &[u8], d: usize) {
        let txt = String::from_utf8_lossy(&src[n.byte_range()]);
        let short: String = txt.chars().take(50).collect::<String>().replace('\n', "⏎");
        println!(
            "{}{}{}{} [{}..{}] {:?}",
            "  ".repeat(d),
            if n.is_missing() { "MISSING " } else { "" },
            n.kind(),
            if n.is_named() { "" } else { "(anon)" },
            n.start_byte(),
            n.end_byte(),
            short
        );
        let mut c = n.walk();
        for ch in n.children(&mut c) {
            go(ch, src, d + 1);
        }
    }
    go(t.root_node(), &src, 0);
}
