//! The async host: a worker on the caller's current-thread runtime, woken
//! by tokio's timers, whose rooms hand work to the runtime's other tasks
//! through channels; tokio's whole-millisecond timer makes each step up to
//! a millisecond late, never early, and never drifts. On tokio's paused
//! clock, which jumps to each timer, so nothing really sleeps.
#![cfg(feature = "tokio")]

use std::time::Duration;

use evenstep::host::{Host, Room};
use evenstep::{Nanos, Pacing, Timestamp, Timestep};

fn paused_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

#[test]
fn a_room_on_tokio_steps_on_time_to_the_millisecond_and_sends_to_other_tasks() {
    let runtime = paused_runtime();
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async {
        let origin = tokio::time::Instant::now();
        // The host's clock is tokio's, so the paused clock drives both.
        let clock = move || Timestamp::ZERO + Nanos::from_duration(origin.elapsed());
        let host = Host::builder().clock(clock).build().unwrap();
        let (sender, mut received) = tokio::sync::mpsc::unbounded_channel();
        host.handle()
            .add(move |setup| {
                let mut game = evenstep::Loop::<u64>::builder()
                    .clock(setup.clock())
                    .timestep(Timestep::HZ_30)
                    .pacing(Pacing::OFF)
                    .build()?;
                game.on_update(move |steps, step| {
                    *steps += 1;
                    let _ = sender.send(step.tick());
                    if *steps == 300 {
                        step.control().stop();
                    }
                });
                Ok::<_, evenstep::ConfigError>(Room::new(game, 0))
            })
            .unwrap();
        host.handle().drain();
        let counter = tokio::task::spawn_local(async move {
            let mut ticks = 0;
            while received.recv().await.is_some() {
                ticks += 1;
            }
            ticks
        });
        let stats = host.run_local().await.unwrap();
        assert_eq!(counter.await.unwrap(), 300);
        assert_eq!(stats.totals.steps, 300);
        assert_eq!(stats.totals.pumps, 300, "one wake-up a step, never early");
        // Ten seconds of steps, and the last one's wait for the millisecond.
        assert!(stats.wall >= Duration::from_secs(10), "{stats:?}");
        assert!(stats.wall <= Duration::from_millis(10_001), "{stats:?}");
        let late = stats.totals.lateness;
        assert!(late.max > Nanos::ZERO, "{late:?}");
        assert!(late.max <= Nanos::from_millis(1), "{late:?}");
    });
}
