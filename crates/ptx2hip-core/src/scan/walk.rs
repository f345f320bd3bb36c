//! A syntax-tree walk that only enters nodes containing a needle.
//!
//! Files with asm are usually large and the asm sparse; visiting only the nodes whose byte range
//! contains a needle occurrence (found beforehand with a fast substring search) keeps the cost near
//! the path lengths to those occurrences instead of the size of the tree.

use tree_sitter::Node;

/// Offsets of every occurrence of any of `needles` in `haystack`, sorted.
pub fn occurrences(haystack: &[u8], needles: &[&[u8]]) -> Vec<usize> {
    let mut hits: Vec<usize> = needles
        .iter()
        .flat_map(|n| memchr::memmem::find_iter(haystack, n))
        .collect();
    hits.sort_unstable();
    hits.dedup();
    hits
}

/// Calls `visit` in document order on every node whose range contains one of `hits` (sorted),
/// with the node's ancestors (root first); `visit` returns whether to look at the node's children.
/// Ancestors are kept here because `Node::parent` searches down from the root again each time,
/// which costs time linear in the number of siblings on the way: quadratic on large files.
pub fn visit_hits<'t>(
    root: Node<'t>,
    hits: &[usize],
    mut visit: impl FnMut(Node<'t>, &[Node<'t>]) -> bool,
) {
    let contains = |n: Node| {
        let i = hits.partition_point(|&h| h < n.start_byte());
        hits.get(i).is_some_and(|&h| h < n.end_byte())
    };
    let mut cursor = root.walk();
    let mut ancestors = Vec::new();
    loop {
        let node = cursor.node();
        if contains(node) && visit(node, &ancestors) && cursor.goto_first_child() {
            ancestors.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            ancestors.pop();
        }
    }
}
