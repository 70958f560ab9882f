// swift-tools-version:6.0
import PackageDescription

/// The blocks package: one executable, one library that holds everything testable,
/// and thin system-library targets for the C libraries, each used by one Swift file.
let package = Package(
    name: "blocks",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "blocks", targets: ["blocks"]),
        .library(name: "BlocksKit", targets: ["BlocksKit"]),
    ],
    targets: [
        .executableTarget(
            name: "blocks",
            dependencies: ["BlocksKit"]
        ),
        .target(
            name: "BlocksKit",
            dependencies: [
                "BlocksCurl", "BlocksArchive", "BlocksSQLite", "BlocksZlib",
                // SHA-256 comes from Nettle on Linux and from CommonCrypto on macOS
                // (Sources/BlocksKit/Platform/Cryptography.swift).
                .byName(name: "BlocksCrypto", condition: .when(platforms: [.linux])),
            ],
            plugins: ["EmbedCatalog"]
        ),
        // Catalog/ and Templates/ go into the binary as string literals, generated on
        // each build by this tool through the plugin: nothing generated is committed.
        .executableTarget(name: "blocks-embed"),
        .plugin(name: "EmbedCatalog", capability: .buildTool(), dependencies: ["blocks-embed"]),
        // Headers only, nothing linked: each shim opens its library with dlopen on first
        // use, so a command that never needs one never loads it (see BlocksLazyLoading/lazy_loading.h).
        // A pkg-config name would add a link line, so none is given. macOS needs none of the
        // providers: it ships libcurl, libarchive and SQLite, and the headers of the first and
        // last; BlocksArchive declares what it uses of libarchive there (darwin_archive.h).
        .systemLibrary(
            name: "BlocksCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "BlocksArchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // The registry's precompressed `.gz` files (Archive/Zlib.swift).
        .systemLibrary(
            name: "BlocksZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "BlocksCrypto",
            providers: [.apt(["nettle-dev"])]
        ),
        // The on-disk search index for large catalogs, lazily loaded like the others.
        .systemLibrary(
            name: "BlocksSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The blocks' pure logic files, compiled straight from Catalog/ so that the
        // tested code is exactly the code users copy.
        .target(
            name: "CatalogLogic",
            path: "Catalog",
            // Only the logic files compile on Linux; views and manifests are checked by lint.
            exclude: [
                "adaptive-tabs/AdaptiveTabs.swift",
                "adaptive-tabs/AdaptiveTabsDemo.swift",
                "adaptive-tabs/block.json",
                "floating-tab-bar/FloatingTabBar.swift",
                "floating-tab-bar/FloatingTabBarDemo.swift",
                "floating-tab-bar/block.json",
                "sticky-header-tabs/StickyHeaderTabs.swift",
                "sticky-header-tabs/StickyHeaderTabsDemo.swift",
                "sticky-header-tabs/block.json",
                "pager/Pager.swift",
                "pager/PagerDemo.swift",
                "pager/block.json",
                "picker-pages/PickerPages.swift",
                "picker-pages/PickerPagesDemo.swift",
                "picker-pages/block.json",
                "search-tab-view/SearchTabView.swift",
                "search-tab-view/SearchTabViewDemo.swift",
                "search-tab-view/block.json",
                "segmented-pill/SegmentedPill.swift",
                "segmented-pill/SegmentedPillDemo.swift",
                "segmented-pill/block.json",
                "scrolling-strip/ScrollingStrip.swift",
                "scrolling-strip/ScrollingStripDemo.swift",
                "scrolling-strip/block.json",
                "top-tabs/TopTabs.swift",
                "top-tabs/TopTabsDemo.swift",
                "top-tabs/block.json",
            ],
            sources: [
                "picker-pages/PickerPagesLogic.swift",
                "scrolling-strip/ScrollingStripLogic.swift",
                "top-tabs/TopTabsLogic.swift",
                "pager/PagerLogic.swift",
                "adaptive-tabs/AdaptiveTabsLogic.swift",
                "floating-tab-bar/FloatingTabBarLogic.swift",
                "sticky-header-tabs/StickyHeaderTabsLogic.swift",
                "segmented-pill/SegmentedPillLogic.swift",
                "search-tab-view/SearchTabViewLogic.swift",
            ]
        ),
        .testTarget(
            name: "BlocksKitTests",
            dependencies: ["BlocksKit"],
            exclude: ["Support/fault_server.py", "Support/pty_run.py", "Support/cdp_driver.py", "Support/pbxproj_oracle.py", "Fixtures/relevance.tsv", "Fixtures/Xcode"]
        ),
        // BlocksKit for the view check (Catalog/ViewTypeCheck.swift), which `blocks lint
        // --typecheck` runs too: one implementation for both.
        .testTarget(
            name: "CatalogLogicTests",
            dependencies: ["CatalogLogic", "BlocksKit"]
        ),
    ]
)
