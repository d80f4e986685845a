import Foundation
import TestSupport
import XCTest

/// `mymap diff` sees one changed letter in a callout at any size and scale, and passes the same map
/// rasterized another way (antialiasing, hinting: what another Cairo or FreeType build does) where that
/// noise is smaller than a letter (scale 2 and 3; see LocalTolerance.scaled for the figures). A machine's
/// own font configuration changes nothing.
final class LetterDiffTests: XCTestCase {
  private func places(_ subtitle: String) -> String {
    """
    { "locations": [
      { "id": "a", "latitude": 48.8584, "longitude": 2.2945, "description": "Eiffel Tower", "category": "\(subtitle)" },
      { "id": "b", "latitude": 48.8606, "longitude": 2.3376, "description": "Louvre Museum", "category": "Museum" } ] }
    """
  }

  private func render(
    _ sandbox: Sandbox, subtitle: String, size: String, scale: Int, out: String, raster: String? = nil
  ) throws {
    let file = try sandbox.write(places(subtitle), to: "places-\(subtitle).json")
    let result = try sandbox.run(
      ["render", "--locations", file, "--size", size, "--scale", String(scale), "--out", out, "-q"],
      environment: raster.map { ["MYMAP_FONT_RASTER": $0] } ?? [:])
    assertSucceeded(result)
  }

  func testOneChangedLetterFailsAtEveryScaleAndSize() throws {
    let sandbox = try Sandbox()
    for (size, scale) in [("400x300", 1), ("400x300", 2), ("400x300", 3), ("4800x3200", 1), ("1600x1067", 3)]
    {
      let name = "\(size)@\(scale)"
      try render(sandbox, subtitle: "Bar", size: size, scale: scale, out: "bar-\(name).png")
      // "Bat" adds a stroke; "Ber" redraws a letter in the same place (each changed pixel within one pixel
      // of ink it had before: the one-pixel match of scale 2 and more passed it at scale 1).
      for changed in ["Bat", "Ber"] {
        let label = "\(changed) \(name)"
        try render(sandbox, subtitle: changed, size: size, scale: scale, out: "\(changed)-\(name).png")
        let result = try sandbox.run(
          ["diff", "bar-\(name).png", "\(changed)-\(name).png", "--scale", String(scale), "--json"])
        XCTAssertEqual(result.status, 1, "\(label): \(result.stdoutText)")
        let figures = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(figures["passes"] as? Bool, false, label)
        let block = try XCTUnwrap(figures["worstBlock"] as? [String: Any], label)
        let tolerance = try XCTUnwrap(figures["tolerance"] as? [String: Any])
        XCTAssertEqual(tolerance["blockSize"] as? Int, 16 * scale)
        XCTAssertEqual(tolerance["smallestDetectedChange"] as? Int, 2 * scale * scale + 1)
        XCTAssertGreaterThanOrEqual(
          try XCTUnwrap(block["differingPixels"] as? Int), 2 * scale * scale + 1, label)
        // Under the old per-image rule (0.2 % of the pixels) the letter passed.
        XCTAssertLessThan(try XCTUnwrap(figures["differingFraction"] as? Double), 0.002, label)
      }
    }
  }

  /// A machine whose fontconfig asks for full hinting, subpixel order and no antialiasing (as desktop
  /// configurations do) draws the same bytes: the glyph settings are mymap's, not the machine's.
  func testTheMachinesFontConfigurationDoesNotChangeTheMap() throws {
    let sandbox = try Sandbox()
    let rules = [
      "<edit name=\"hintstyle\" mode=\"assign\"><const>hintfull</const></edit>",
      "<edit name=\"hinting\" mode=\"assign\"><bool>true</bool></edit>",
      "<edit name=\"rgba\" mode=\"assign\"><const>rgb</const></edit>",
      "<edit name=\"antialias\" mode=\"assign\"><bool>false</bool></edit>",
    ]
    let config = try sandbox.write(
      """
      <?xml version="1.0"?>
      <fontconfig>
        <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
        <match target="pattern">\(rules.joined())</match>
        <match target="font">\(rules.joined())</match>
      </fontconfig>
      """, to: "fonts.conf")
    let file = try sandbox.write(places("Bar"), to: "places.json")
    for scale in [1, 2] {
      let base = "base-\(scale).png"
      let other = "machine-\(scale).png"
      assertSucceeded(
        try sandbox.run([
          "render", "--locations", file, "--size", "400x300", "--scale", String(scale), "--out", base,
        ]))
      assertSucceeded(
        try sandbox.run(
          ["render", "--locations", file, "--size", "400x300", "--scale", String(scale), "--out", other],
          environment: ["FONTCONFIG_FILE": config]))
      XCTAssertEqual(sandbox.contents(of: other), sandbox.contents(of: base), "scale \(scale)")
      XCTAssertEqual(try sandbox.run(["diff", base, other, "--scale", String(scale)]).status, 0)
    }
  }

  /// The machine's font configuration still chooses the fonts: a `FONTCONFIG_FILE` that maps the style's
  /// family to a serif one draws the callouts in serif, and the layout names its file.
  func testTheMachinesFontConfigurationChoosesTheFonts() throws {
    let sandbox = try Sandbox()
    let config = try sandbox.write(
      """
      <?xml version="1.0"?>
      <fontconfig>
        <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
        <match target="pattern">
          <test name="family"><string>DejaVu Sans</string></test>
          <edit name="family" mode="assign" binding="same"><string>DejaVu Serif</string></edit>
        </match>
      </fontconfig>
      """, to: "fonts.conf")
    let file = try sandbox.write(places("Bar"), to: "places.json")
    let arguments = ["render", "--locations", file, "--size", "400x300"]
    assertSucceeded(try sandbox.run(arguments + ["--out", "sans.png", "--layout-json", "sans.json"]))
    assertSucceeded(
      try sandbox.run(
        arguments + ["--out", "serif.png", "--layout-json", "serif.json"],
        environment: ["FONTCONFIG_FILE": config]))
    XCTAssertNotEqual(sandbox.contents(of: "serif.png"), sandbox.contents(of: "sans.png"))
    let sans = try XCTUnwrap(sandbox.contents(of: "sans.json").flatMap { String(bytes: $0, encoding: .utf8) })
    let serif = try XCTUnwrap(
      sandbox.contents(of: "serif.json").flatMap { String(bytes: $0, encoding: .utf8) })
    XCTAssertTrue(sans.contains("DejaVuSans.ttf"), "the default font")
    XCTAssertTrue(serif.contains("DejaVuSerif.ttf"), "the configuration's font")
    XCTAssertFalse(serif.contains("DejaVuSans.ttf"))
  }

  /// A configuration that names no cache folder (FcInit then adds its defaults) renders without a word
  /// from fontconfig on stderr, and with the same fonts as the machine's.
  func testAFontConfigurationWithoutACacheFolderRendersQuietly() throws {
    let sandbox = try Sandbox()
    let config = try sandbox.write(
      """
      <?xml version="1.0"?>
      <fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir></fontconfig>
      """, to: "fonts.conf")
    let file = try sandbox.write(places("Bar"), to: "places.json")
    let arguments = ["render", "--locations", file, "--size", "400x300"]
    assertSucceeded(try sandbox.run(arguments + ["--out", "machine.png"]))
    let result = try sandbox.run(
      arguments + ["--out", "dejavu.png"], environment: ["FONTCONFIG_FILE": config])
    assertSucceeded(result)
    XCTAssertEqual(sandbox.contents(of: "dejavu.png"), sandbox.contents(of: "machine.png"))
  }

  func testAnotherRasterizationPassesAtScale2And3() throws {
    let sandbox = try Sandbox()
    for scale in [2, 3] {
      try render(sandbox, subtitle: "Bar", size: "400x300", scale: scale, out: "base-\(scale).png")
      for raster in ["antialias=none", "antialias=subpixel", "hint=slight"] {
        let out = "\(raster)-\(scale).png"
        try render(sandbox, subtitle: "Bar", size: "400x300", scale: scale, out: out, raster: raster)
        XCTAssertNotEqual(sandbox.contents(of: out), sandbox.contents(of: "base-\(scale).png"), raster)
        let result = try sandbox.run(["diff", "base-\(scale).png", out, "--scale", String(scale)])
        XCTAssertEqual(result.status, 0, "\(raster) at scale \(scale): \(result.stdoutText)")
      }
    }
  }
}
