fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).expect("path"));
    let filter = std::env::args().nth(2);
    let spec = rlc_csharp::load::ProjectSpec::single("x", vec![path], Vec::new());
    let mut loaded = rlc_csharp::load::load(&[spec], &rlc_csharp::load::embedded_library());
    let lowered = rlc_csharp::load::lower_all(&mut loaded.index);
    for b in &lowered.bodies {
        if filter.as_ref().is_none_or(|f| b.name.contains(f.as_str())) {
            println!("{}", b.dump(Some(&loaded.index.program)));
        }
    }
}
