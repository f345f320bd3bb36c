fn main() {
    let path = std::env::args().nth(1).unwrap();
    let src = std::fs::read(path).unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_cuda::LANGUAGE.into()).unwrap();
    let t = p.parse(&src, None).unwrap();
    fn walk(n: tree_sitter::Node, src: &[u8], depth: usize, field: Option<&str>) {
        let txt = if n.child_count() == 0 { format!(" {:?}", String::from_utf8_lossy(&src[n.byte_range()])) } else { String::new() };
        println!("{}{}{}{} [{}..{}]{}", "  ".repeat(depth), field.map(|f| format!("{f}: ")).unwrap_or_default(), if n.is_named() {""} else {"'"}, n.kind(), n.start_byte(), n.end_byte(), txt);
        let mut c = n.walk();
        for (i, ch) in n.children(&mut c).enumerate() {
            walk(ch, src, depth + 1, n.field_name_for_child(i as u32));
        }
    }
    walk(t.root_node(), &src, 0, None);
}
