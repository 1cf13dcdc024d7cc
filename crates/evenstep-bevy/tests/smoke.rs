//! Smoke.
mod support;
use core::time::Duration;
use evenstep_bevy::EvenstepSettings;

#[test]
fn smoke() {
    let mut app = support::app(60.0, Some(EvenstepSettings::default()));
    support::frame(&mut app, Duration::ZERO);
    for _ in 0..10 {
        let n = support::frame(&mut app, Duration::from_nanos(16_666_667));
        println!("{n} {:?}", support::plan(&app));
    }
    let n = support::frame(&mut app, Duration::from_millis(200));
    println!("{n} {:?}", support::plan(&app));
    let mut bevy = support::app(60.0, None);
    support::frame(&mut bevy, Duration::ZERO);
    let n = support::frame(&mut bevy, Duration::from_millis(200));
    println!("bevy {n}");
}
