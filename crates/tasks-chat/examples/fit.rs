// scratch: cargo run -q -p tasks-chat --example fit -- "message words" "Title"
use tasks_chat::matching;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let c = matching::Candidate::new("X-1", &a[2]);
    for m in matching::words(&a[1]) {
        println!(
            "m {} stems {:?} concepts {:?} names {:?} latin {} sounds {:?}",
            m.text, m.stems, m.concepts, m.names, m.latin, m.sounds
        );
        for t in &c.words {
            println!(
                "   t {} stems {:?} concepts {:?} name {} names {:?} -> {:?}",
                t.text,
                t.stems,
                t.concepts,
                t.name,
                t.names,
                matching::fit_of(&m, t)
            );
        }
    }
}
