fn main() {
    println!("castellan: work in progress");
}
