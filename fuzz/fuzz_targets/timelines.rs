//! A timeline against a reference model: random `after`, `every`, cancels,
//! clears and advances by random spans (to the end of time included), with
//! callbacks that arm, cancel and panic from inside. The model is a plain
//! list of timers and the rules as the timeline's documentation states
//! them; after every operation the two agree on which timers fired, in what
//! order, with what `repeats` and due time, on what each cancel returned,
//! on which timers are armed, on `len`, `next_due` and `now`, and on
//! whether the advance panicked.
#![no_main]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::time::Duration;

use arbitrary::Arbitrary;
use evenstep::{Nanos, Timeline, TimerHandle, timeline::Fire};
use libfuzzer_sys::fuzz_target;

/// The payload of every panic the script asks for. Any other panic is a
/// finding.
struct ScriptedPanic;

/// Timers a run may arm in all; arming acts past it do nothing (in the
/// timeline and the model alike), so repeating timers that arm repeating
/// timers cannot grow without bound.
const MAX_TIMERS: usize = 200;

/// What a timer's callback does each time it fires (two acts per timer,
/// picked from the script by the timer's number).
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Act {
    Nothing,
    After(u32),
    Every(u32),
    Cancel(u8),
    CancelLatest,
    CancelSelf,
    Panic,
}

/// What the test does to the timeline.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    After(u32),
    Every(u32),
    Cancel(u8),
    Advance(u32),
    AdvanceTo(u64),
    Clear,
}

#[derive(Arbitrary, Debug)]
struct Input {
    script: Vec<Act>,
    ops: Vec<Op>,
}

/// A span from a fuzzed number: mostly a lattice of 5 ms steps (so due
/// times coincide and registration order decides), sometimes a few
/// nanoseconds, zero (refused), or near or at the end of time.
fn span(raw: u32) -> Duration {
    let n = u64::from(raw >> 4);
    match raw % 16 {
        0 => Duration::ZERO,
        1 | 2 => Duration::from_nanos(n % 7 + 1),
        3 => Duration::from_nanos(u64::MAX - n),
        4 => Duration::MAX,
        5 => Duration::from_secs(n),
        _ => Duration::from_millis((n % 40 + 1) * 5),
    }
}

/// The nanoseconds a span stands for on a timeline (saturating, as the
/// timeline's own conversion does).
fn nanos(span: Duration) -> u64 {
    u64::try_from(span.as_nanos()).unwrap_or(u64::MAX)
}

/// The two acts of timer `id`.
fn acts(script: &[Act], id: usize) -> [Act; 2] {
    if script.is_empty() {
        return [Act::Nothing; 2];
    }
    [
        script[(2 * id) % script.len()],
        script[(2 * id + 1) % script.len()],
    ]
}

/// One firing, as the callback saw it or the model predicts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fired {
    id: usize,
    repeats: u64,
    due: u64,
    now: u64,
}

/// What the callbacks share: the script, every handle by timer number, and
/// what they saw.
#[derive(Default)]
struct State {
    script: Vec<Act>,
    handles: Vec<TimerHandle>,
    fired: Vec<Fired>,
    cancels: Vec<bool>,
}

type Callback = Box<dyn FnMut(&mut State, &mut Fire<'_, State>)>;

fn callback(id: usize) -> Callback {
    Box::new(move |state: &mut State, fire: &mut Fire<'_, State>| {
        assert_eq!(
            fire.handle(),
            state.handles[id],
            "a timer is told its own handle"
        );
        state.fired.push(Fired {
            id,
            repeats: fire.repeats(),
            due: fire.due().as_nanos(),
            now: fire.now().as_nanos(),
        });
        for act in acts(&state.script, id) {
            match act {
                Act::Nothing => {}
                Act::After(raw) | Act::Every(raw) => {
                    if state.handles.len() >= MAX_TIMERS {
                        continue;
                    }
                    let next = state.handles.len();
                    let armed = if matches!(act, Act::After(_)) {
                        fire.after(span(raw), callback(next))
                    } else {
                        fire.every(span(raw), callback(next))
                    };
                    match armed {
                        Ok(handle) => state.handles.push(handle),
                        Err(_) => assert!(span(raw).is_zero(), "only a zero span is refused"),
                    }
                }
                Act::Cancel(which) => {
                    let handle = state.handles[usize::from(which) % state.handles.len()];
                    let cancelled = fire.cancel(handle);
                    state.cancels.push(cancelled);
                }
                Act::CancelLatest => {
                    let handle = *state.handles.last().expect("this timer's own, at least");
                    let cancelled = fire.cancel(handle);
                    state.cancels.push(cancelled);
                }
                Act::CancelSelf => fire.cancel_self(),
                Act::Panic => std::panic::panic_any(ScriptedPanic),
            }
        }
    })
}

/// A timer as the model keeps it. Timers are numbered in the order they
/// were armed, which is their registration order.
#[derive(Debug, Clone, Copy)]
struct ModelTimer {
    period: Option<u64>,
    due: u64,
    armed: bool,
}

/// The timeline's rules, written plainly: time is the sum of the advances,
/// saturating at the end of time; an advance fires each timer armed before
/// it and due by its end at most once, in due order and then registration
/// order, skipping those cancelled meanwhile; a repeating timer is told how
/// many of its due times the advance covered and is re-armed at the next
/// one after the advance's end, or disarmed if that would not be later (the
/// end of time); a callback's panic ends the advance and disarms its timer,
/// leaving the timers not reached due.
#[derive(Default)]
struct Model {
    now: u64,
    timers: Vec<ModelTimer>,
    fired: Vec<Fired>,
    cancels: Vec<bool>,
}

impl Model {
    fn arm(&mut self, period: Option<u64>, delay: u64) {
        self.timers.push(ModelTimer {
            period,
            due: self.now.saturating_add(delay),
            armed: true,
        });
    }

    /// Arms `span` from now, as `after` or `every` would, or refuses a
    /// zero span. Returns whether a timer was armed.
    fn schedule(&mut self, repeating: bool, span: Duration) -> bool {
        if span.is_zero() {
            return false;
        }
        let delay = nanos(span);
        self.arm(repeating.then_some(delay), delay);
        true
    }

    fn cancel(&mut self, id: usize) -> bool {
        std::mem::replace(&mut self.timers[id].armed, false)
    }

    fn len(&self) -> usize {
        self.timers.iter().filter(|t| t.armed).count()
    }

    fn next_due(&self) -> Option<u64> {
        self.timers.iter().filter(|t| t.armed).map(|t| t.due).min()
    }

    /// Advances to `to`; returns whether a callback panicked.
    fn advance_to(&mut self, script: &[Act], to: u64) -> bool {
        if to <= self.now {
            return false;
        }
        self.now = to;
        let mut due: Vec<usize> = (0..self.timers.len())
            .filter(|&id| self.timers[id].armed && self.timers[id].due <= to)
            .collect();
        due.sort_by_key(|&id| (self.timers[id].due, id));
        for id in due {
            let timer = &mut self.timers[id];
            if !timer.armed {
                continue; // cancelled by an earlier callback of this advance
            }
            let was_due = timer.due;
            let repeats = match timer.period {
                None => {
                    timer.armed = false;
                    1
                }
                Some(period) => {
                    let covered = (to - was_due) / period;
                    let next = u128::from(was_due) + u128::from(period) * u128::from(covered + 1);
                    let next = u64::try_from(next).unwrap_or(u64::MAX);
                    if next > to {
                        timer.due = next;
                    } else {
                        timer.armed = false;
                    }
                    covered + 1
                }
            };
            self.fired.push(Fired {
                id,
                repeats,
                due: was_due,
                now: to,
            });
            for act in acts(script, id) {
                match act {
                    Act::Nothing => {}
                    Act::After(raw) | Act::Every(raw) => {
                        if self.timers.len() < MAX_TIMERS {
                            self.schedule(matches!(act, Act::Every(_)), span(raw));
                        }
                    }
                    Act::Cancel(which) => {
                        let target = usize::from(which) % self.timers.len();
                        let cancelled = self.cancel(target);
                        self.cancels.push(cancelled);
                    }
                    Act::CancelLatest => {
                        let cancelled = self.cancel(self.timers.len() - 1);
                        self.cancels.push(cancelled);
                    }
                    Act::CancelSelf => {
                        self.cancel(id);
                    }
                    Act::Panic => {
                        self.timers[id].armed = false;
                        return true;
                    }
                }
            }
        }
        false
    }
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

fn agree(timeline: &Timeline<State>, state: &mut State, model: &mut Model, op: Op) {
    assert_eq!(state.fired, model.fired, "firings after {op:?}");
    assert_eq!(
        state.cancels, model.cancels,
        "cancels from callbacks after {op:?}"
    );
    state.fired.clear();
    state.cancels.clear();
    model.fired.clear();
    model.cancels.clear();
    assert_eq!(timeline.now().as_nanos(), model.now, "now after {op:?}");
    assert_eq!(timeline.len(), model.len(), "len after {op:?}");
    assert_eq!(timeline.is_empty(), model.len() == 0);
    assert_eq!(
        timeline.next_due().map(Nanos::as_nanos),
        model.next_due(),
        "next_due after {op:?}"
    );
    assert_eq!(
        state.handles.len(),
        model.timers.len(),
        "timers armed in all"
    );
    for (id, (handle, timer)) in state.handles.iter().zip(&model.timers).enumerate() {
        assert_eq!(
            timeline.is_armed(*handle),
            timer.armed,
            "timer {id} after {op:?}"
        );
    }
}

fuzz_target!(|input: Input| {
    quiet_scripted_panics();
    let mut timeline = Timeline::<State>::new();
    let mut state = State {
        script: input.script,
        ..State::default()
    };
    let mut model = Model::default();
    for op in input.ops {
        match op {
            Op::After(raw) | Op::Every(raw) => {
                let repeating = matches!(op, Op::Every(_));
                if state.handles.len() >= MAX_TIMERS {
                    continue;
                }
                let next = state.handles.len();
                let armed = if repeating {
                    timeline.every(span(raw), callback(next))
                } else {
                    timeline.after(span(raw), callback(next))
                };
                let modelled = model.schedule(repeating, span(raw));
                assert_eq!(armed.is_ok(), modelled, "{op:?}");
                if let Ok(handle) = armed {
                    state.handles.push(handle);
                }
            }
            Op::Cancel(which) => {
                if !state.handles.is_empty() {
                    let id = usize::from(which) % state.handles.len();
                    assert_eq!(
                        timeline.cancel(state.handles[id]),
                        model.cancel(id),
                        "{op:?}"
                    );
                }
            }
            Op::Clear => {
                timeline.clear();
                for timer in &mut model.timers {
                    timer.armed = false;
                }
            }
            Op::Advance(_) | Op::AdvanceTo(_) => {
                let to = match op {
                    Op::Advance(raw) => model.now.saturating_add(nanos(span(raw))),
                    Op::AdvanceTo(to) => to,
                    _ => unreachable!(),
                };
                let advanced = catch_unwind(AssertUnwindSafe(|| match op {
                    Op::Advance(raw) => timeline.advance(&mut state, span(raw)),
                    _ => timeline.advance_to(&mut state, Nanos::from_nanos(to)),
                }));
                let script = state.script.clone();
                let panicked = model.advance_to(&script, to);
                assert_eq!(advanced.is_err(), panicked, "{op:?}");
            }
        }
        agree(&timeline, &mut state, &mut model, op);
    }
});
