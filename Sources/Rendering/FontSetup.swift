import CCairo
import Foundation
import Locking

/// The machine's fonts made ready before a render measures its first text.
///
/// Fontconfig's start (its configuration's XML files read, the font caches mapped) takes a few
/// milliseconds of a render that takes a few tens; a command line can have it done on another core while
/// it reads the places, the style and the tile source.
public enum FontSetup {
  /// Whether `startLoading` was called (the configuration is then loaded here rather than by `FcInit`).
  private static let started = Locked(false)

  /// Loads fontconfig's configuration and font list on a thread of its own; the first text measured waits
  /// for what is left of it. Call it at most once, first thing, before anything in the process has used
  /// fontconfig (a program's start, not a library's): the configuration it loads becomes fontconfig's
  /// current one. A program that may exit without rendering calls `finishLoading` before it exits.
  public static func startLoading() {
    started.withLock { $0 = true }
    Thread { _ = TextLayout.fontOptions }.start()
  }

  /// Waits for what `startLoading` began (at once when it was not called or has finished): exiting while
  /// fontconfig writes a stale cache would leave its lock file behind for ten minutes.
  public static func finishLoading() {
    if started.withLock({ $0 }) { _ = TextLayout.fontOptions }
  }

  /// Fontconfig's current configuration, made by the first caller (`GlyphRaster.current`, once).
  ///
  /// After `startLoading`, it is loaded as `FcInit` loads it (`FONTCONFIG_FILE`, else fonts.conf and
  /// everything that includes, then the font caches) without also parsing every template under
  /// conf.avail for its description, a third of `FcInit`'s time that only `fc-conflist` needs. The fonts
  /// matched are the same. Whatever `FcInit` would treat specially is left to it: a configuration that
  /// fails to load, names no cache folder (it adds its defaults) or finds no fonts, and `FC_DEBUG`.
  static func currentConfiguration() -> OpaquePointer? {
    if started.withLock({ $0 }), let config = loadConfiguration() {
      defer { FcConfigDestroy(config) }  // FcConfigSetCurrent holds a reference of its own
      if FcConfigSetCurrent(config) != 0 { return FcConfigGetCurrent() }
    }
    return FcConfigGetCurrent()
  }

  /// The machine's configuration with its fonts, owned by the caller; nil when `FcInit` should load it
  /// instead (see `currentConfiguration`).
  static func loadConfiguration() -> OpaquePointer? {
    guard ProcessInfo.processInfo.environment["FC_DEBUG"] == nil, let config = FcConfigCreate() else {
      return nil
    }
    // Not complaining: a file that does not load is FcInit's to report, once.
    guard FcConfigParseAndLoad(config, nil, FcFalse) != 0, hasCacheFolder(config),
      FcConfigBuildFonts(config) != 0, let fonts = FcConfigGetFonts(config, FcSetSystem),
      fonts.pointee.nfont > 0
    else {
      FcConfigDestroy(config)
      return nil
    }
    return config
  }

  /// Whether the configuration names a cache folder: without one, every font would be scanned again on
  /// every run (FcInit adds the system's and the user's).
  private static func hasCacheFolder(_ config: OpaquePointer) -> Bool {
    guard let folders = FcConfigGetCacheDirs(config) else { return false }
    defer { FcStrListDone(folders) }
    return FcStrListNext(folders) != nil
  }
}
