//! The loop's subscribers: the updates, renders and hooks it calls, each
//! named by a [`SubscriberId`] so it can be removed, and the stall hook.

use evenstep_core::FramePlan;

use crate::contexts::{RenderContext, StepContext};
use crate::game_loop::Loop;

type Update<S> = Box<dyn FnMut(&mut S, &StepContext<'_>)>;
type Render<S> = Box<dyn FnMut(&S, &RenderContext<'_>)>;
/// A hook called with a pump's plan: before or after the steps, or on a
/// stall.
type Hook<S> = Box<dyn FnMut(&mut S, &FramePlan)>;

/// Names an update or render subscriber, to remove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubscriberId(u64);

/// Everything the loop calls back, in registration order within each kind.
pub(crate) struct Subscribers<S> {
    updates: Vec<(SubscriberId, Update<S>)>,
    renders: Vec<(SubscriberId, Render<S>)>,
    before_steps: Vec<(SubscriberId, Hook<S>)>,
    after_steps: Vec<(SubscriberId, Hook<S>)>,
    on_stall: Option<Hook<S>>,
    next_id: u64,
}

impl<S> Subscribers<S> {
    /// No subscriber yet.
    pub(crate) fn new() -> Subscribers<S> {
        Subscribers {
            updates: Vec::new(),
            renders: Vec::new(),
            before_steps: Vec::new(),
            after_steps: Vec::new(),
            on_stall: None,
            next_id: 0,
        }
    }

    fn next_subscriber(&mut self) -> SubscriberId {
        let id = SubscriberId(self.next_id);
        self.next_id += 1;
        id
    }

    fn count(&self) -> usize {
        self.updates.len() + self.renders.len() + self.before_steps.len() + self.after_steps.len()
    }

    /// Removes the update, render or hook named `id`. Returns whether it
    /// was there.
    fn remove(&mut self, id: SubscriberId) -> bool {
        let before = self.count();
        self.updates.retain(|(i, _)| *i != id);
        self.renders.retain(|(i, _)| *i != id);
        self.before_steps.retain(|(i, _)| *i != id);
        self.after_steps.retain(|(i, _)| *i != id);
        before != self.count()
    }

    /// Runs the updates for one step, in registration order, until one asks
    /// to stop. Returns whether one did.
    pub(crate) fn update(&mut self, state: &mut S, step: &StepContext<'_>) -> bool {
        for (_, update) in &mut self.updates {
            update(state, step);
            // Only an update can ask to stop or give its step back: jobs,
            // timers and the stall hook are given no control.
            if step.control.stop_requested() || step.control.give_back_requested() {
                return true;
            }
        }
        false
    }

    /// Runs the renders, in registration order.
    pub(crate) fn render(&mut self, state: &S, frame: &RenderContext<'_>) {
        for (_, render) in &mut self.renders {
            render(state, frame);
        }
    }

    /// Runs the stall hook, if one is set.
    pub(crate) fn stall(&mut self, state: &mut S, plan: &FramePlan) {
        if let Some(hook) = self.on_stall.as_mut() {
            hook(state, plan);
        }
    }

    /// Runs the hooks before the steps, in registration order.
    pub(crate) fn before_steps(&mut self, state: &mut S, plan: &FramePlan) {
        for (_, hook) in &mut self.before_steps {
            hook(state, plan);
        }
    }

    /// Runs the hooks after the steps, in registration order.
    pub(crate) fn after_steps(&mut self, state: &mut S, plan: &FramePlan) {
        for (_, hook) in &mut self.after_steps {
            hook(state, plan);
        }
    }
}

impl<S> Loop<S> {
    /// Adds an update subscriber. Updates run once per fixed step, in
    /// registration order, and may mutate the state.
    pub fn on_update<F>(&mut self, update: F) -> SubscriberId
    where
        F: FnMut(&mut S, &StepContext<'_>) + 'static,
    {
        let subscribers = &mut self.subscribers;
        let id = subscribers.next_subscriber();
        subscribers.updates.push((id, Box::new(update)));
        id
    }

    /// Adds a render subscriber. Renders run once per paint pump, in
    /// registration order, and cannot mutate the state.
    pub fn on_render<F>(&mut self, render: F) -> SubscriberId
    where
        F: FnMut(&S, &RenderContext<'_>) + 'static,
    {
        let subscribers = &mut self.subscribers;
        let id = subscribers.next_subscriber();
        subscribers.renders.push((id, Box::new(render)));
        id
    }

    /// Adds a hook that runs on every pump after the plan is made and
    /// before its steps (step 5 of the pump order), with the plan, in
    /// registration order: a network session polls its sockets and feeds
    /// the inputs of the steps about to run. It runs on pumps with no step
    /// too, and while paused.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, PumpKind};
    ///
    /// #[derive(Default)]
    /// struct Session { log: Vec<String> }
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<Session>::builder().clock(clock.clone()).build()?;
    /// game_loop.on_before_steps(|s, plan| s.log.push(format!("poll for {}", plan.steps_run())));
    /// game_loop.on_update(|s, step| s.log.push(format!("step {}", step.tick())));
    /// game_loop.on_after_steps(|s, _| s.log.push("send".into()));
    /// game_loop.start();
    /// clock.advance(Duration::from_millis(20));
    /// let mut session = Session::default();
    /// let _ = game_loop.pump(&mut session, PumpKind::Tick);
    /// assert_eq!(session.log, ["poll for 1", "step 0", "send"]);
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn on_before_steps<F>(&mut self, hook: F) -> SubscriberId
    where
        F: FnMut(&mut S, &FramePlan) + 'static,
    {
        let subscribers = &mut self.subscribers;
        let id = subscribers.next_subscriber();
        subscribers.before_steps.push((id, Box::new(hook)));
        id
    }

    /// Adds a hook that runs on every pump after its steps (step 7 of the
    /// pump order) and before the renders, with the plan, in registration
    /// order: a network session sends what the steps produced. It runs on
    /// pumps with no step too, and while paused; not after a `stop` from an
    /// update, which ends the pump at once.
    pub fn on_after_steps<F>(&mut self, hook: F) -> SubscriberId
    where
        F: FnMut(&mut S, &FramePlan) + 'static,
    {
        let subscribers = &mut self.subscribers;
        let id = subscribers.next_subscriber();
        subscribers.after_steps.push((id, Box::new(hook)));
        id
    }

    /// Removes an update, render or hook subscriber. Returns whether it was
    /// there.
    pub fn remove(&mut self, id: SubscriberId) -> bool {
        self.subscribers.remove(id)
    }

    /// Sets the hook called when the step budget drops time, with the plan
    /// (`plan.dropped()` is the excess). For a performance warning; never a
    /// source of credited resources.
    pub fn on_stall<F>(&mut self, hook: F)
    where
        F: FnMut(&mut S, &FramePlan) + 'static,
    {
        self.subscribers.on_stall = Some(Box::new(hook));
    }
}
