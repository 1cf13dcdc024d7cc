//! The easing table: every curve's output at a fixed set of points, frozen
//! as IEEE bit patterns, so a change to any curve (or to the arithmetic
//! behind it) fails loudly; exact ends; names both ways; unknown names
//! refused with the list of valid ones.

use evenstep::Ease;

const POINTS: [f64; 9] = [0.0, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.7, 0.9, 0.999, 1.0];

/// `Ease::apply` at [`POINTS`], as `f64::to_bits`. Regenerate only for a
/// deliberate change to a curve, and say so in the changelog: tweens in
/// recorded replays follow these bits.
const GOLDEN: [(Ease, [u64; 9]); 21] = [
    (
        Ease::Linear,
        [
            0x0000_0000_0000_0000,
            0x3fb9_9999_9999_999a,
            0x3fd0_0000_0000_0000,
            0x3fd5_5555_5555_5555,
            0x3fe0_0000_0000_0000,
            0x3fe6_6666_6666_6666,
            0x3fec_cccc_cccc_cccd,
            0x3fef_f7ce_d916_872b,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::SmoothStep,
        [
            0x0000_0000_0000_0000,
            0x3f9c_ac08_3126_e97a,
            0x3fc4_0000_0000_0000,
            0x3fd0_97b4_25ed_097b,
            0x3fe0_0000_0000_0000,
            0x3fe9_1687_2b02_0c49,
            0x3fef_1a9f_be76_c8b4,
            0x3fef_fff9_b676_047b,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::SmootherStep,
        [
            0x0000_0000_0000_0000,
            0x3f81_87e7_c06e_19bb,
            0x3fba_8000_0000_0000,
            0x3fca_dd3c_0ca4_587e,
            0x3fe0_0000_0000_0000,
            0x3fea_c80c_73ab_c946,
            0x3fef_b9e0_60fe_4797,
            0x3fef_ffff_faa3_abce,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuadIn,
        [
            0x0000_0000_0000_0000,
            0x3f84_7ae1_47ae_147c,
            0x3fb0_0000_0000_0000,
            0x3fbc_71c7_1c71_c71c,
            0x3fd0_0000_0000_0000,
            0x3fdf_5c28_f5c2_8f5b,
            0x3fe9_eb85_1eb8_51ec,
            0x3fef_ef9f_cb0c_026d,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuadOut,
        [
            0x0000_0000_0000_0000,
            0x3fc8_51eb_851e_b850,
            0x3fdc_0000_0000_0000,
            0x3fe1_c71c_71c7_1c71,
            0x3fe8_0000_0000_0000,
            0x3fed_1eb8_51eb_851e,
            0x3fef_ae14_7ae1_47ae,
            0x3fef_fffd_e721_0be9,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuadInOut,
        [
            0x0000_0000_0000_0000,
            0x3f94_7ae1_47ae_147c,
            0x3fc0_0000_0000_0000,
            0x3fcc_71c7_1c71_c71c,
            0x3fe0_0000_0000_0000,
            0x3fea_3d70_a3d7_0a3d,
            0x3fef_5c28_f5c2_8f5c,
            0x3fef_fffb_ce42_17d3,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::CubicIn,
        [
            0x0000_0000_0000_0000,
            0x3f50_624d_d2f1_a9fd,
            0x3f90_0000_0000_0000,
            0x3fa2_f684_bda1_2f68,
            0x3fc0_0000_0000_0000,
            0x3fd5_f3b6_45a1_cabf,
            0x3fe7_53f7_ced9_1688,
            0x3fef_e772_d557_0166,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::CubicOut,
        [
            0x0000_0000_0000_0000,
            0x3fd1_5810_624d_d2f0,
            0x3fe2_8000_0000_0000,
            0x3fe6_84bd_a12f_684b,
            0x3fec_0000_0000_0000,
            0x3fef_22d0_e560_4189,
            0x3fef_f7ce_d916_872b,
            0x3fef_ffff_ff76_8fa1,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::CubicInOut,
        [
            0x0000_0000_0000_0000,
            0x3f70_624d_d2f1_a9fd,
            0x3fb0_0000_0000_0000,
            0x3fc2_f684_bda1_2f68,
            0x3fe0_0000_0000_0000,
            0x3fec_8b43_9581_0624,
            0x3fef_df3b_645a_1cac,
            0x3fef_ffff_fdda_3e83,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuartIn,
        [
            0x0000_0000_0000_0000,
            0x3f1a_36e2_eb1c_432f,
            0x3f70_0000_0000_0000,
            0x3f89_48b0_fcd6_e9e0,
            0x3fb0_0000_0000_0000,
            0x3fce_bb98_c7e2_823e,
            0x3fe4_fec5_6d5c_faae,
            0x3fef_df47_f76e_36e7,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuartOut,
        [
            0x0000_0000_0000_0000,
            0x3fd6_0275_2546_0aa4,
            0x3fe5_e000_0000_0000,
            0x3fe9_add3_c0ca_4587,
            0x3fee_0000_0000_0000,
            0x3fef_bda5_119c_e076,
            0x3fef_ff2e_48e8_a71e,
            0x3fef_ffff_ffff_dcd1,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuartInOut,
        [
            0x0000_0000_0000_0000,
            0x3f4a_36e2_eb1c_432f,
            0x3fa0_0000_0000_0000,
            0x3fb9_48b0_fcd6_e9e0,
            0x3fe0_0000_0000_0000,
            0x3fed_ed28_8ce7_03af,
            0x3fef_f972_4745_38ef,
            0x3fef_ffff_fffe_e686,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuintIn,
        [
            0x0000_0000_0000_0000,
            0x3ee4_f8b5_88e3_68f3,
            0x3f50_0000_0000_0000,
            0x3f70_db20_a88f_4695,
            0x3fa0_0000_0000_0000,
            0x3fc5_8351_58b8_27f8,
            0x3fe2_e54b_48d3_ae6a,
            0x3fef_d71f_30c8_78e5,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuintOut,
        [
            0x0000_0000_0000_0000,
            0x3fda_3569_6e58_a32c,
            0x3fe8_6800_0000_0000,
            0x3feb_c937_d5dc_2e5a,
            0x3fef_0000_0000_0000,
            0x3fef_ec17_ebaf_1023,
            0x3fef_ffeb_074a_771d,
            0x3fef_ffff_ffff_fff7,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::QuintInOut,
        [
            0x0000_0000_0000_0000,
            0x3f24_f8b5_88e3_68f3,
            0x3f90_0000_0000_0000,
            0x3fb0_db20_a88f_4695,
            0x3fe0_0000_0000_0000,
            0x3fee_c17e_baf1_0236,
            0x3fef_feb0_74a7_71c9,
            0x3fef_ffff_ffff_ff70,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::BackIn,
        [
            0x0000_0000_0000_0000,
            0xbf8d_50c6_1624_59a8,
            0xbfb0_6b40_f66a_5509,
            0xbfb6_c917_a500_8661,
            0xbfb6_7357_e670_e2c4,
            0x3fb7_c62e_2227_4734,
            0x3fe2_eae1_9586_ba6e,
            0x3fef_d989_7ead_712b,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::BackOut,
        [
            0x0000_0000_0000_0000,
            0x3fda_2a3c_d4f2_8b24,
            0x3fea_2838_5c67_dfe4,
            0x3fee_95d4_2223_afd1,
            0x3ff1_6735_7e67_0e2c,
            0x3ff1_487f_5017_4495,
            0x3ff0_3aa1_8c2c_48b3,
            0x3ff0_0001_c80a_093b,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::BackInOut,
        [
            0x0000_0000_0000_0000,
            0xbfa3_35a1_b3aa_a313,
            0xbfb9_84bf_d2e9_4680,
            0xbfa6_8fff_951f_77b9,
            0x3fe0_0000_0000_0000,
            0x3ff1_42e6_e639_c17e,
            0x3ff0_99ad_0d9d_5518,
            0x3ff0_0005_6d45_7c1e,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::BounceIn,
        [
            0x0000_0000_0000_0000,
            0x3f88_51eb_851e_b880,
            0x3f9c_0000_0000_0000,
            0x3fc1_c71c_71c7_1c6c,
            0x3fce_0000_0000_0000,
            0x3fd4_70a3_d70a_3d6e,
            0x3fed_947a_e147_ae15,
            0x3fef_fff0_23e9_ea14,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::BounceOut,
        [
            0x0000_0000_0000_0000,
            0x3fb3_5c28_f5c2_8f5d,
            0x3fde_4000_0000_0000,
            0x3fea_e38e_38e3_8e38,
            0x3fe8_8000_0000_0000,
            0x3fed_c7ae_147a_e148,
            0x3fef_9eb8_51eb_851e,
            0x3fef_fa6e_1155_92d9,
            0x3ff0_0000_0000_0000,
        ],
    ),
    (
        Ease::BounceInOut,
        [
            0x0000_0000_0000_0000,
            0x3f9e_b851_eb85_1ec0,
            0x3fbe_0000_0000_0000,
            0x3fb4_71c7_1c71_c718,
            0x3fe0_0000_0000_0000,
            0x3fee_8f5c_28f5_c290,
            0x3fef_0a3d_70a3_d70a,
            0x3fef_fa7d_ed6b_a8c6,
            0x3ff0_0000_0000_0000,
        ],
    ),
];

#[test]
fn every_easing_is_bit_identical_to_its_frozen_values() {
    assert_eq!(GOLDEN.len(), Ease::ALL.len(), "every curve is frozen");
    for (ease, bits) in GOLDEN {
        for (t, expected) in POINTS.iter().zip(bits) {
            let got = ease.apply(*t).to_bits();
            assert_eq!(got, expected, "{ease} at {t}: {got:#018x}");
        }
    }
}

#[test]
fn a_changed_curve_would_fail_the_golden_test() {
    // Negative control: a one-ulp change to a single value is caught.
    let (ease, bits) = GOLDEN[7];
    let nudged = f64::from_bits(bits[4]).next_up();
    assert_ne!(ease.apply(POINTS[4]).to_bits(), nudged.to_bits());
}

#[test]
fn every_easing_starts_at_exactly_zero_and_ends_at_exactly_one() {
    for ease in Ease::ALL {
        assert_eq!(ease.apply(0.0), 0.0, "{ease}");
        assert_eq!(ease.apply(1.0), 1.0, "{ease}");
        assert_eq!(ease.apply(-3.0), 0.0, "{ease}: clamped below");
        assert_eq!(ease.apply(7.0), 1.0, "{ease}: clamped above");
        assert_eq!(ease.apply(f64::NAN), 0.0, "{ease}: NaN is the start");
    }
}

#[test]
fn the_polynomial_curves_never_leave_the_unit_interval_and_never_go_backwards() {
    let overshooting = [Ease::BackIn, Ease::BackOut, Ease::BackInOut];
    let bouncing = [Ease::BounceIn, Ease::BounceOut, Ease::BounceInOut];
    for ease in Ease::ALL {
        if overshooting.contains(&ease) || bouncing.contains(&ease) {
            continue;
        }
        let mut last = 0.0;
        for i in 0..=1_000 {
            let v = ease.apply(f64::from(i) / 1_000.0);
            assert!((0.0..=1.0).contains(&v), "{ease}");
            assert!(v >= last, "{ease} at {i}");
            last = v;
        }
    }
    assert!(Ease::BackIn.apply(0.3) < 0.0, "back pulls back");
    assert!(Ease::BackOut.apply(0.7) > 1.0, "and overshoots");
    assert!(
        (0..=1_000).all(|i| (0.0..=1.0).contains(&Ease::BounceOut.apply(f64::from(i) / 1_000.0)))
    );
}

#[test]
fn names_round_trip_in_camel_and_snake_case() {
    for ease in Ease::ALL {
        assert_eq!(Ease::from_name(ease.name()), Ok(ease));
        assert_eq!(Ease::from_name(ease.snake_name()), Ok(ease));
        assert_eq!(ease.to_string(), ease.name());
        assert_eq!(ease.name().parse::<Ease>(), Ok(ease));
    }
    assert_eq!(Ease::CubicInOut.snake_name(), "cubic_in_out");
}

#[test]
fn an_unknown_name_is_refused_with_every_valid_name() {
    let error = Ease::from_name("sineInOut").unwrap_err().to_string();
    assert!(
        error.starts_with("unknown easing \"sineInOut\"; the valid names are linear, smoothStep")
    );
    for ease in Ease::ALL {
        assert!(error.contains(ease.name()), "{error}");
    }
    assert!(error.ends_with("(or the same in snake_case, like cubic_out)"));
    assert!(Ease::from_name("CubicOut").is_err(), "names are exact");
}

#[cfg(feature = "serde")]
#[test]
fn easings_serialize_by_name_and_read_either_spelling() {
    assert_eq!(
        serde_json::to_string(&Ease::QuintInOut).unwrap(),
        "\"quintInOut\""
    );
    assert_eq!(
        serde_json::from_str::<Ease>("\"bounce_out\"").unwrap(),
        Ease::BounceOut
    );
    let error = serde_json::from_str::<Ease>("\"wobble\"")
        .unwrap_err()
        .to_string();
    assert!(error.contains("the valid names are"), "{error}");
}
