fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(path).expect("read");
    let f = rlc_csharp::parse::parse_file(&text, &Default::default());
    print!("{}", rlc_csharp::hir::dump::dump(&f, &text));
}
