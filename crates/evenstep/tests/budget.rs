//! The step budget on the loop: in steps, or as a span of simulation that
//! is turned into steps of the loop's own timestep (at build, in whatever
//! order the builder was told, and at every change of the step), so the two
//! can never disagree; a window of zero covers one step.

use std::time::Duration;

use evenstep::{Loop, ManualClock, PumpKind, StepBudget, Timestep};

#[test]
fn a_budget_window_is_counted_in_steps_of_the_loops_timestep_in_either_order() {
    let window = Duration::from_millis(250);
    let before = Loop::<()>::builder()
        .budget_window(window)
        .timestep(Timestep::HZ_20)
        .build()
        .unwrap();
    let after = Loop::<()>::builder()
        .timestep(Timestep::HZ_20)
        .budget_window(window)
        .build()
        .unwrap();
    assert_eq!(before.budget(), StepBudget::try_new(5).unwrap());
    assert_eq!(after.budget(), StepBudget::try_new(5).unwrap());
    assert_eq!(before.budget_window(), Some(window));
}

#[test]
fn the_later_of_budget_and_budget_window_wins() {
    let steps = Loop::<()>::builder()
        .budget_window(Duration::from_secs(1))
        .budget(StepBudget::try_new(3).unwrap())
        .build()
        .unwrap();
    assert_eq!(steps.budget().get(), 3);
    assert_eq!(steps.budget_window(), None);
    let window = Loop::<()>::builder()
        .budget(StepBudget::try_new(3).unwrap())
        .budget_window(Duration::from_secs(1))
        .build()
        .unwrap();
    assert_eq!(window.budget().get(), 60);
}

#[test]
fn a_budget_set_on_the_loop_clamps_from_the_next_pump() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u64>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_20)
        .build()
        .unwrap();
    game_loop.on_update(|steps, _| *steps += 1);
    game_loop.start();
    game_loop.set_budget(StepBudget::try_new(2).unwrap());
    clock.advance(Duration::from_secs(1));
    let mut steps = 0;
    let plan = game_loop
        .pump(&mut steps, PumpKind::Tick)
        .report()
        .unwrap()
        .plan;
    assert_eq!(steps, 2);
    assert_eq!(plan.steps_dropped(), 18);

    game_loop.set_budget_window(Duration::from_millis(200));
    assert_eq!(game_loop.budget().get(), 4);
    clock.advance(Duration::from_secs(1));
    let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    assert_eq!(steps, 6);
}

#[test]
fn a_budget_window_of_zero_covers_one_step_and_a_refresh_hint_of_zero_says_nothing() {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<u64>::builder()
        .clock(clock.clone())
        .budget_window(Duration::ZERO)
        .pacing(evenstep::Pacing::OFF)
        .build()
        .unwrap();
    assert_eq!(game_loop.budget().get(), 1);
    assert_eq!(game_loop.budget_window(), Some(Duration::ZERO));
    game_loop.set_budget_window(Duration::from_nanos(1));
    assert_eq!(game_loop.budget().get(), 1);
    game_loop.on_update(|steps, _| *steps += 1);
    game_loop.start();
    let mut steps = 0;
    clock.advance(Duration::from_millis(100));
    let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    assert_eq!(steps, 1);
    game_loop.set_refresh_hint(Some(Duration::ZERO));
    assert_eq!(game_loop.planner().refresh_hint(), None);
    game_loop.set_refresh_hint(Some(Duration::from_nanos(16_666_667)));
    assert_eq!(
        game_loop.planner().refresh_hint(),
        Some(evenstep::Nanos::from_nanos(16_666_667))
    );
}
