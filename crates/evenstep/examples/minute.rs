//! A whole minute of game at once, on a manual clock: ~60 fps of paint
//! pumps, an autosave on the real timeline every 30 s, then a minute in
//! which the window is hidden and only one-second tick pumps arrive.
//!
//! Run it with `cargo run --example minute`.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use evenstep::{Loop, ManualClock, PumpKind, Timestep};

#[derive(Default)]
struct World {
    x: f64,
    previous_x: f64,
    saves: Vec<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let clock = ManualClock::new(); // in a game: MonotonicClock
    let timestep = Timestep::HZ_60;
    let mut game_loop = Loop::<World>::builder()
        .clock(clock.clone())
        .timestep(timestep)
        // At most a quarter second of simulation per pump: 15 steps.
        .budget_window(Duration::from_millis(250))
        .build()?;

    game_loop.on_update(|world, step| {
        world.previous_x = world.x; // a teleport must set both
        world.x += 2.0 * step.dt_secs_f64(); // 2 units a second, exactly 1/60 s a step
    });
    let renders = Rc::new(Cell::new(0_u64));
    let counted = Rc::clone(&renders);
    game_loop.on_render(move |world, frame| {
        counted.set(counted.get() + 1);
        if frame.tick() == 60 {
            let drawn_at = frame.alpha().lerp_f64(world.previous_x, world.x);
            println!("tick 60 draws x at {drawn_at:.4}");
        }
    });
    game_loop
        .real()
        .every(Duration::from_secs(30), |world, fire| {
            let at = fire.now().as_secs_f64(); // real time: the real timeline's clock
            println!("autosave x{} at {at:.4} s", fire.repeats());
            world.saves.push(format!("{at:.4}"));
        })?;

    let mut world = World::default();
    game_loop.start();
    for _ in 0..3_600 {
        // One simulated minute at ~60 fps.
        clock.advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut world, PumpKind::Paint);
    }
    let stats = game_loop.stats();
    println!(
        "ticks {}  sim {:.6} s  real {:.6} s",
        game_loop.tick(),
        game_loop.sim_time().as_secs_f64(),
        game_loop.real_time().as_secs_f64()
    );
    println!(
        "dt {}  fps {}  dropped {} s  gap p50 {} p99 {}",
        timestep.dt_nanos_floor(),
        stats.fps(),
        stats.dropped_secs(),
        stats.gap_p50(),
        stats.gap_p99()
    );

    // The window is hidden: no paints, a timer wakes the loop once a second.
    for _ in 0..60 {
        clock.advance(Duration::from_secs(1));
        let _ = game_loop.pump(&mut world, PumpKind::Tick);
    }
    let stats = game_loop.stats();
    println!(
        "after a hidden minute: renders {}, ticks {}",
        renders.get(),
        game_loop.tick()
    );
    println!(
        "sim {:.2} s vs real {:.2} s; dropped {:.2} s; autosaves {}",
        game_loop.sim_time().as_secs_f64(),
        game_loop.real_time().as_secs_f64(),
        stats.dropped_secs(),
        world.saves.len()
    );

    // Shown again: the minute without a picture is an absence, not a gap.
    clock.advance(Duration::from_nanos(16_666_667));
    let _ = game_loop.pump(&mut world, PumpKind::Paint);
    let stats = game_loop.stats();
    println!(
        "shown again: absences {}, gap p99 {}, renders {}",
        stats.absences(),
        stats.gap_p99(),
        renders.get()
    );
    Ok(())
}
