//! docs/dice.md promises that a player can check the dice with a short script of their
//! own: scripts/verify_dice.py (Python standard library only) must agree with the engine.

use castellan_engine::dice::{DiceBox, Secret};

/// docs/dice.md promises that a player can check the dice with a short script of their
/// own: scripts/verify_dice.py (standard library only) must agree with this module.
#[test]
fn the_python_reference_script_reproduces_the_rolls() {
    let mut d = DiceBox::new("castle-7", Secret::derive(b"golden"));
    d.enter_turn(3);
    let sides = [6u8, 6, 6, 3, 44, 6, 2, 6];
    let faces: Vec<String> = sides.iter().map(|&s| d.roll(s).value.to_string()).collect();
    let seed = d.turn_seed(3);
    let prev = d.turn_seed(2);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/verify_dice.py");
    let mut args = vec![
        script.to_string(),
        "roll".into(),
        "castle-7".into(),
        "3".into(),
        seed.hex(),
    ];
    args.extend(sides.iter().map(|s| s.to_string()));
    let out = std::process::Command::new("python3")
        .args(&args)
        .output()
        .expect("python3 is needed to check the reference script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), faces.join(" "));
    let out = std::process::Command::new("python3")
        .args([script, "chain", &seed.hex(), &prev.hex()])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
}
