fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).expect("path"));
    let spec = rlc_csharp::load::ProjectSpec::single("x", vec![path], Vec::new());
    let loaded = rlc_csharp::load::load(&[spec], &rlc_csharp::load::embedded_library());
    let last = rlc_core::FileId(loaded.index.files.len() as u32 - 1);
    print!(
        "{}",
        rlc_csharp::resolve::dump::dump_file(&loaded.index, last)
    );
}
