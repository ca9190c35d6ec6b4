import ArgumentParser

/// The scales an output takes: `wl_output.scale` is a whole number, and Multihead's compositor takes 1…4.
package let outputScales = 1...4

/// `--scale` checked: a whole number from 1 to 4 (else a usage error, 64).
package func checkScale(_ scale: Int?) throws {
    guard let scale else { return }
    guard outputScales.contains(scale) else {
        throw ValidationError("--scale is an output's scale, a whole number from 1 to 4, not \(scale)")
    }
}

/// `--scale` on an X server: a scale other than 1 is a usage error (64), since X has no per-output scale;
/// toolkits on X read theirs from the environment, which `multihead run --scale` sets.
package func refuseScaleOnX(_ scale: Int?) throws {
    guard let scale, scale != 1 else { return }
    throw UsageError(message: "--scale \(scale): X has no per-output scale; on X, give the toolkits their factors with "
                     + "multihead run --scale \"NAME=\(scale)\" (or use a Wayland server: multihead server --wayland)")
}
