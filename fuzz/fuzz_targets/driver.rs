//! The driver under a hostile script: callbacks of every kind (update,
//! render, stall hook, job, real and sim timer) that panic, steer the loop,
//! and arm and cancel timers from inside; a clock that jumps, steps back and
//! saturates. Every tick is begun exactly once, in order, across panics and
//! restarts, a panic leaves the loop stopped, and a restart runs again.
#![no_main]

use std::cell::RefCell;
use std::num::NonZeroU32;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::Once;
use std::time::Duration;

use arbitrary::Arbitrary;
use evenstep::input::{Button, InputEvent, Key};
use evenstep::{
    Clock, JobHandle, Loop, ManualClock, Pacing, PumpKind, Rate, Speed, StepBudget, TimerHandle,
    Timestamp, Timestep, timeline::Fire,
};
use libfuzzer_sys::fuzz_target;

/// The payload of every panic the script asks for. Any other panic is a
/// finding.
struct ScriptedPanic;

/// What a callback does when it runs.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Act {
    Nothing,
    Panic,
    Pause,
    Resume,
    Stop,
    Speed(u8, u8),
    Queue(u8),
    After(u32),
    Every(u32),
    CancelLatest,
    RequestJob(u8),
    /// From the first update: give the step and the rest back, banked.
    Refund,
    /// From the first update: give the step and the rest back, dropped.
    Skip,
}

/// What the test does between pumps.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Paint,
    Tick,
    Advance(u32),
    AdvanceFar(u64),
    SetClock(u64),
    Saturate,
    Start,
    Stop,
    Pause,
    Resume,
    Speed(u8, u8),
    SpeedF64(f64),
    Queue(u8),
    Pacing(u8),
    Cap(u16),
    CatchUp(u32),
    RequestJob(u8),
    RealAfter(u32),
    RealEvery(u32),
    SimAfter(u32),
    SimEvery(u32),
    CancelReal(u8),
    CancelSim(u8),
    ResetStats,
    /// Push an input event of this kind at the clock's reading plus this.
    Input(u8, i32),
}

#[derive(Arbitrary, Debug)]
struct Input {
    timestep: u8,
    budget: u8,
    acts: Vec<Act>,
    ops: Vec<Op>,
}

/// What the callbacks share: the script, the timers they armed and the
/// jobs they can request.
struct Script {
    acts: Vec<Act>,
    next: usize,
    armed: Vec<TimerHandle>,
    jobs: Vec<JobHandle>,
    /// Timers the callbacks may still arm: a timer that arms two more each
    /// time it fires is a fork bomb, not a finding.
    arms_left: u32,
    /// Steps the callbacks may still queue: each step queueing two more is
    /// a fork bomb too.
    queues_left: u32,
}

type Shared = Rc<RefCell<Script>>;

/// A timer callback of the game.
type TimerCallback = Box<dyn FnMut(&mut Game, &mut Fire<'_, Game>)>;

impl Script {
    /// The next act, cycling through the script.
    fn act(shared: &Shared) -> Act {
        let mut script = shared.borrow_mut();
        if script.acts.is_empty() {
            return Act::Nothing;
        }
        let act = script.acts[script.next % script.acts.len()];
        script.next = script.next.wrapping_add(1);
        act
    }

    /// Whether a callback may arm one more timer.
    fn may_arm(shared: &Shared) -> bool {
        let mut script = shared.borrow_mut();
        script.arms_left = script.arms_left.saturating_sub(1);
        script.arms_left > 0
    }

    fn request(shared: &Shared, which: u8) {
        let script = shared.borrow();
        if !script.jobs.is_empty() {
            script.jobs[usize::from(which) % script.jobs.len()].request();
        }
    }
}

#[derive(Default)]
struct Game {
    /// Every tick the first update subscriber began, in order.
    ticks: Vec<u64>,
}

fn speed(num: u8, den: u8) -> Option<Speed> {
    // Up to 16x, so one pump stays short.
    Speed::new(u16::from(num % 17), u16::from(den)).ok()
}

/// Steers the loop from an update or render callback.
fn steer(act: Act, control: &evenstep::Control, shared: &Shared) {
    match act {
        Act::Pause => control.pause(),
        Act::Resume => control.resume(),
        Act::Stop => control.stop(),
        Act::Speed(num, den) => {
            if let Some(speed) = speed(num, den) {
                control.set_speed(speed);
            }
        }
        Act::Queue(count) => {
            let mut script = shared.borrow_mut();
            let count = u32::from(count % 8).min(script.queues_left);
            script.queues_left -= count;
            control.queue_steps(count);
        }
        _ => {}
    }
}

/// A timer callback that follows the script, arming more of itself.
fn timer(shared: Shared) -> TimerCallback {
    Box::new(move |_, fire| match Script::act(&shared) {
        Act::Panic => std::panic::panic_any(ScriptedPanic),
        Act::After(nanos) if Script::may_arm(&shared) => {
            if let Ok(handle) = fire.after(
                Duration::from_nanos(u64::from(nanos)),
                timer(Rc::clone(&shared)),
            ) {
                shared.borrow_mut().armed.push(handle);
            }
        }
        Act::Every(nanos) if Script::may_arm(&shared) => {
            if let Ok(handle) = fire.every(
                Duration::from_nanos(u64::from(nanos)),
                timer(Rc::clone(&shared)),
            ) {
                shared.borrow_mut().armed.push(handle);
            }
        }
        Act::CancelLatest => {
            let latest = shared.borrow_mut().armed.pop();
            if let Some(handle) = latest {
                fire.cancel(handle);
            }
        }
        Act::Stop => fire.cancel_self(),
        Act::RequestJob(which) => Script::request(&shared, which),
        _ => {}
    })
}

fn quiet_scripted_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let finding = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<ScriptedPanic>() {
                finding(info);
            }
        }));
    });
}

fuzz_target!(|input: Input| {
    quiet_scripted_panics();
    let timestep = [
        Timestep::HZ_30,
        Timestep::HZ_60,
        Timestep::HZ_59_94,
        Timestep::HZ_144,
    ][usize::from(input.timestep % 4)];
    let budget =
        StepBudget::try_new(u32::from(input.budget % 8) + 1).unwrap_or(StepBudget::DEFAULT);
    let clock = ManualClock::new();
    let Ok(mut game_loop) = Loop::<Game>::builder()
        .clock(clock.clone())
        .timestep(timestep)
        .budget(budget)
        .build()
    else {
        return;
    };
    let shared: Shared = Rc::new(RefCell::new(Script {
        acts: input.acts.clone(),
        next: 0,
        armed: Vec::new(),
        jobs: Vec::new(),
        arms_left: 256,
        queues_left: 256,
    }));

    let script = Rc::clone(&shared);
    game_loop.on_update(move |game, step| {
        let act = Script::act(&script);
        match act {
            Act::Refund => return step.control().refund_rest(),
            Act::Skip => return step.control().skip_rest(),
            _ => {}
        }
        game.ticks.push(step.tick());
        let input = step.input();
        let _ = (
            input.pressed(Key::SPACE),
            input.motion(),
            input.text().count(),
        );
        match act {
            Act::Panic => std::panic::panic_any(ScriptedPanic),
            Act::RequestJob(which) => Script::request(&script, which),
            act => steer(act, step.control(), &script),
        }
    });
    let script = Rc::clone(&shared);
    game_loop.on_update(move |_, step| match Script::act(&script) {
        Act::Panic => std::panic::panic_any(ScriptedPanic),
        act => steer(act, step.control(), &script),
    });
    let script = Rc::clone(&shared);
    game_loop.on_render(move |_, render| match Script::act(&script) {
        Act::Panic => std::panic::panic_any(ScriptedPanic),
        act => steer(act, render.control(), &script),
    });
    let script = Rc::clone(&shared);
    game_loop.on_stall(move |_, _| {
        if let Act::Panic = Script::act(&script) {
            std::panic::panic_any(ScriptedPanic);
        }
    });
    for _ in 0..2 {
        let script = Rc::clone(&shared);
        let job = game_loop.coalesce(move |_| match Script::act(&script) {
            Act::Panic => std::panic::panic_any(ScriptedPanic),
            Act::RequestJob(which) => Script::request(&script, which),
            _ => {}
        });
        shared.borrow_mut().jobs.push(job);
    }

    let mut game = Game::default();
    let mut real_handles = Vec::new();
    let mut sim_handles = Vec::new();
    // How many ticks the first update had begun when each panic happened.
    let mut panics_after = Vec::new();
    for op in input.ops {
        let result = catch_unwind(AssertUnwindSafe(|| match op {
            Op::Paint => {
                let _ = game_loop.pump(&mut game, PumpKind::Paint);
            }
            Op::Tick => {
                let _ = game_loop.pump(&mut game, PumpKind::Tick);
            }
            Op::CatchUp(millis) => {
                let span = Duration::from_millis(u64::from(millis % 10_000));
                let _ = game_loop.catch_up(&mut game, span);
            }
            _ => {}
        }));
        if result.is_err() {
            panics_after.push(game.ticks.len());
            assert!(!game_loop.is_running(), "a panic leaves the loop stopped");
            game_loop.start();
            assert!(game_loop.is_running(), "and restartable");
        }
        match op {
            Op::Advance(nanos) => clock.advance(Duration::from_nanos(u64::from(nanos))),
            Op::AdvanceFar(nanos) => clock.advance(Duration::from_nanos(nanos)),
            Op::SetClock(at) => clock.set(Timestamp::from_nanos(at)),
            Op::Saturate => clock.set(Timestamp::MAX),
            Op::Start => game_loop.start(),
            Op::Stop => game_loop.stop(),
            Op::Pause => game_loop.pause(),
            Op::Resume => game_loop.resume(),
            Op::Speed(num, den) => {
                if let Some(speed) = speed(num, den) {
                    game_loop.set_speed(speed);
                }
            }
            Op::SpeedF64(value) => {
                if value <= 16.0 {
                    let _ = game_loop.set_speed_f64(value);
                }
            }
            Op::Queue(count) => game_loop.queue_steps(u32::from(count % 8)),
            Op::Pacing(which) => game_loop.set_pacing(match which % 3 {
                0 => Pacing::OFF,
                1 => Pacing::CENTRED,
                _ => Pacing::snapped(Duration::from_millis(u64::from(which % 8)))
                    .unwrap_or(Pacing::OFF),
            }),
            Op::Cap(fps) => game_loop.set_render_cap(NonZeroU32::new(u32::from(fps)).map(Rate::hz)),
            Op::RequestJob(which) => Script::request(&shared, which),
            Op::RealAfter(nanos) => {
                if let Ok(handle) = game_loop.real().after(
                    Duration::from_nanos(u64::from(nanos)),
                    timer(Rc::clone(&shared)),
                ) {
                    real_handles.push(handle);
                }
            }
            Op::RealEvery(nanos) => {
                if let Ok(handle) = game_loop.real().every(
                    Duration::from_nanos(u64::from(nanos)),
                    timer(Rc::clone(&shared)),
                ) {
                    real_handles.push(handle);
                }
            }
            Op::SimAfter(nanos) => {
                if let Ok(handle) = game_loop.sim().after(
                    Duration::from_nanos(u64::from(nanos)),
                    timer(Rc::clone(&shared)),
                ) {
                    sim_handles.push(handle);
                }
            }
            Op::SimEvery(nanos) => {
                if let Ok(handle) = game_loop.sim().every(
                    Duration::from_nanos(u64::from(nanos)),
                    timer(Rc::clone(&shared)),
                ) {
                    sim_handles.push(handle);
                }
            }
            Op::CancelReal(which) => {
                if !real_handles.is_empty() {
                    let handle = real_handles[usize::from(which) % real_handles.len()];
                    let _ = game_loop.real().cancel(handle);
                    // A real handle never names a sim timer.
                    assert!(!game_loop.sim().cancel(handle));
                }
            }
            Op::CancelSim(which) => {
                if !sim_handles.is_empty() {
                    let handle = sim_handles[usize::from(which) % sim_handles.len()];
                    let _ = game_loop.sim().cancel(handle);
                    assert!(!game_loop.real().cancel(handle));
                }
            }
            Op::ResetStats => game_loop.reset_stats(),
            Op::Input(kind, offset) => {
                let at = clock
                    .now()
                    .as_nanos()
                    .saturating_add_signed(i64::from(offset));
                let event = match kind % 6 {
                    0 => InputEvent::Press(Button::Key(Key::SPACE)),
                    1 => InputEvent::Release(Button::Key(Key::SPACE)),
                    2 => InputEvent::Motion {
                        dx: f64::from(offset),
                        dy: f64::NAN,
                    },
                    3 => InputEvent::Text("é".into()),
                    4 => InputEvent::Pointer {
                        x: 1.0,
                        y: f64::from(kind),
                    },
                    _ => InputEvent::FocusLost,
                };
                let _ = game_loop.push_input(Timestamp::from_nanos(at), event);
            }
            Op::Paint | Op::Tick | Op::CatchUp(_) => {}
        }
        let _ = game_loop.stats();
    }
    // Every tick is begun exactly once, in order. A step whose sim timer
    // panicked was begun before its updates ran: each such panic skips one
    // tick number, never more.
    let skips_at = |begun: usize| panics_after.iter().filter(|&&at| at == begun).count() as u64;
    let mut next = 0_u64;
    for (k, &tick) in game.ticks.iter().enumerate() {
        assert!(
            (next..=next + skips_at(k)).contains(&tick),
            "tick {tick} after tick {next} was due"
        );
        next = tick + 1;
    }
    let last = game_loop.tick();
    assert!(
        (next..=next + skips_at(game.ticks.len())).contains(&last),
        "the next tick is {last}, after tick {next} was due"
    );
});
