import ArgumentParser
import Multihead

/// The scales an output takes: Multihead's compositor takes 1…4, fractional ones included (1.25, 1.5: it
/// keeps a scale on wp_fractional_scale_v1's grid of 1/120; integer-only clients see the next whole one).
package let outputScales = 1.0...4.0

/// `--scale` checked: a number from 1 to 4 (else a usage error, 64).
package func checkScale(_ scale: Double?) throws {
    guard let scale else { return }
    guard outputScales.contains(scale) else {
        throw ValidationError("--scale is an output's scale, a number from 1 to 4 (such as 1.5), not \(String(rate: scale))")
    }
}

/// `--scale` on an X server: a scale other than 1 is a usage error (64), since X has no per-output scale;
/// toolkits on X read theirs from the environment, which `multihead run --scale` sets.
package func refuseScaleOnX(_ scale: Double?) throws {
    guard let scale, scale != 1 else { return }
    let text = String(rate: scale)
    throw UsageError(message: "--scale \(text): X has no per-output scale; on X, give the toolkits their factors with "
                     + "multihead run --scale \"NAME=\(text)\" (or use a Wayland server: multihead server --wayland)")
}
