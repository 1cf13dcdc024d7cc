//! Contract (the `reflect` feature): the plugin registers its types;
//! `EvenstepSettings` and `FixedPlan` are read and written as resources
//! through reflection (a setting written so takes effect at the next
//! frame), reflected opaquely, as whole values; `Stall` is reflected field
//! by field.
#![cfg(feature = "reflect")]

mod support;

use core::any::TypeId;
use core::time::Duration;

use bevy_app::App;
use bevy_ecs::reflect::{AppTypeRegistry, ReflectComponent, ReflectResource};
use bevy_ecs::resource::Resource;
use bevy_reflect::structs::Struct;
use bevy_reflect::{Reflect, ReflectRef};
use evenstep_bevy::{Budget, EvenstepSettings, FixedPlan, Refusal, Stall};

/// The resource `T` as reflection reaches it: by its type id, on the
/// entity that holds it.
fn reflected<T: Resource>(app: &App) -> &dyn Reflect {
    let entity = app.world().resource_entity::<T>().unwrap();
    app.world().get_reflect(entity, TypeId::of::<T>()).unwrap()
}

#[test]
fn the_plugin_registers_its_types() {
    let app = support::app(64.0, Some(EvenstepSettings::default()));
    let registry = app.world().resource::<AppTypeRegistry>().read();
    for (name, id) in [
        ("EvenstepSettings", TypeId::of::<EvenstepSettings>()),
        ("Budget", TypeId::of::<Budget>()),
        ("FixedPlan", TypeId::of::<FixedPlan>()),
        ("Stall", TypeId::of::<Stall>()),
        ("Refusal", TypeId::of::<Refusal>()),
    ] {
        let registration = registry
            .get(id)
            .unwrap_or_else(|| panic!("{name} unregistered"));
        assert_eq!(
            registration.type_info().type_path_table().ident(),
            Some(name)
        );
    }
    for id in [TypeId::of::<EvenstepSettings>(), TypeId::of::<FixedPlan>()] {
        assert!(registry.get_type_data::<ReflectResource>(id).is_some());
        assert!(registry.get_type_data::<ReflectComponent>(id).is_some());
    }
}

#[test]
fn a_setting_written_through_reflection_takes_effect_at_the_next_frame() {
    let mut app = support::app(64.0, Some(EvenstepSettings::default()));
    support::frame(&mut app, Duration::ZERO);
    let current = reflected::<EvenstepSettings>(&app);
    assert!(matches!(current.reflect_ref(), ReflectRef::Opaque(_)));
    assert_eq!(
        current.downcast_ref::<EvenstepSettings>(),
        Some(&EvenstepSettings::default())
    );
    let entity = app.world().resource_entity::<EvenstepSettings>().unwrap();
    let id = TypeId::of::<EvenstepSettings>();
    let mut settings = app.world_mut().get_reflect_mut(entity, id).unwrap();
    settings.apply(&EvenstepSettings::bevy_compatible());
    assert_eq!(
        *app.world().resource::<EvenstepSettings>(),
        EvenstepSettings::bevy_compatible()
    );
    // Bevy's catch-up: 250 ms of a 400 ms hitch, 16 steps of 64 Hz, where
    // the default's budget runs 5.
    assert_eq!(support::frame(&mut app, Duration::from_millis(400)), 16);
}

#[test]
fn the_plan_reads_through_reflection_as_the_resource_it_is() {
    let mut app = support::app(60.0, Some(EvenstepSettings::default()));
    support::frame(&mut app, Duration::ZERO);
    support::frame(&mut app, Duration::from_millis(200));
    let reflected = reflected::<FixedPlan>(&app);
    let copy = reflected.reflect_clone().unwrap();
    let copy = copy.downcast_ref::<FixedPlan>().unwrap();
    assert_eq!(*copy, support::plan(&app));
    assert_eq!((copy.steps_run(), copy.steps_dropped()), (5, 7));
    assert!(reflected.reflect_partial_eq(&support::plan(&app)).unwrap());
}

#[test]
fn a_stall_is_reflected_field_by_field() {
    let stall = Stall {
        frame_delta: Duration::from_millis(200),
        beyond_max_delta: Duration::ZERO,
        steps_due: 12,
        steps_run: 5,
        steps_dropped: 7,
        dropped: Duration::from_nanos(116_666_666),
        first_tick: 10,
    };
    assert_eq!(stall.field_len(), 7);
    let field = |name: &str| {
        stall
            .field(name)
            .and_then(|field| field.try_downcast_ref::<u64>())
    };
    assert_eq!(field("steps_dropped"), Some(&7));
    assert_eq!(field("first_tick"), Some(&10));
    assert_eq!(
        stall
            .field("dropped")
            .and_then(|field| field.try_downcast_ref::<Duration>()),
        Some(&Duration::from_nanos(116_666_666))
    );
}
