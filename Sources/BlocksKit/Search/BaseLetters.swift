/// The base letter of every scalar whose canonical decomposition (NFD) is that letter
/// followed only by combining diacritical marks (`é` → `e`, `ṩ` → `s`, `ΐ` → `ι`): what
/// decomposing and then dropping the marks gives, without a decomposition at run time.
///
/// The standard library publishes no canonical decomposition (its `_nfd` is SPI, invisible
/// in Apple's SDK) and FoundationEssentials has none, so the facts are kept here as data.
/// `StartupTextNormalizerTests.baseLetterTableIsFoundationsDecomposition` checks every
/// scalar from U+0080 to U+2FFFF against Foundation's `decomposedStringWithCanonicalMapping`:
/// each entry, and that no other scalar decomposes to a letter and diacritics. Every entry's
/// decomposition holds a single base scalar, so the table maps one scalar to one scalar.
enum BaseLetters {
    /// The scalar that `value` keeps once its diacritics are dropped, or nil when it has none.
    static func base(of value: UInt32) -> UInt32? {
        table[value]
    }

    /// Decoded on first use: only text outside ASCII and Latin-1/Extended-A/B reaches it.
    static let table: [UInt32: UInt32] = {
        var table: [UInt32: UInt32] = [:]
        for entry in encoded.split(whereSeparator: { $0 == "," || $0 == "\n" }) {
            let fields = entry.split(separator: " ")
            guard fields.count == 2, let from = UInt32(fields[0], radix: 16), let to = UInt32(fields[1], radix: 16) else { continue }
            table[from] = to
        }
        return table
    }()

    /// "scalar base" pairs in hexadecimal, comma-separated, from Unicode's canonical
    /// decompositions as Foundation reports them.
    static let encoded = """
        c0 41,c1 41,c2 41,c3 41,c4 41,c5 41,c7 43,c8 45,c9 45,ca 45,cb 45,cc 49
        cd 49,ce 49,cf 49,d1 4e,d2 4f,d3 4f,d4 4f,d5 4f,d6 4f,d9 55,da 55,db 55
        dc 55,dd 59,e0 61,e1 61,e2 61,e3 61,e4 61,e5 61,e7 63,e8 65,e9 65,ea 65
        eb 65,ec 69,ed 69,ee 69,ef 69,f1 6e,f2 6f,f3 6f,f4 6f,f5 6f,f6 6f,f9 75
        fa 75,fb 75,fc 75,fd 79,ff 79,100 41,101 61,102 41,103 61,104 41,105 61,106 43
        107 63,108 43,109 63,10a 43,10b 63,10c 43,10d 63,10e 44,10f 64,112 45,113 65,114 45
        115 65,116 45,117 65,118 45,119 65,11a 45,11b 65,11c 47,11d 67,11e 47,11f 67,120 47
        121 67,122 47,123 67,124 48,125 68,128 49,129 69,12a 49,12b 69,12c 49,12d 69,12e 49
        12f 69,130 49,134 4a,135 6a,136 4b,137 6b,139 4c,13a 6c,13b 4c,13c 6c,13d 4c,13e 6c
        143 4e,144 6e,145 4e,146 6e,147 4e,148 6e,14c 4f,14d 6f,14e 4f,14f 6f,150 4f,151 6f
        154 52,155 72,156 52,157 72,158 52,159 72,15a 53,15b 73,15c 53,15d 73,15e 53,15f 73
        160 53,161 73,162 54,163 74,164 54,165 74,168 55,169 75,16a 55,16b 75,16c 55,16d 75
        16e 55,16f 75,170 55,171 75,172 55,173 75,174 57,175 77,176 59,177 79,178 59,179 5a
        17a 7a,17b 5a,17c 7a,17d 5a,17e 7a,1a0 4f,1a1 6f,1af 55,1b0 75,1cd 41,1ce 61,1cf 49
        1d0 69,1d1 4f,1d2 6f,1d3 55,1d4 75,1d5 55,1d6 75,1d7 55,1d8 75,1d9 55,1da 75,1db 55
        1dc 75,1de 41,1df 61,1e0 41,1e1 61,1e2 c6,1e3 e6,1e6 47,1e7 67,1e8 4b,1e9 6b,1ea 4f
        1eb 6f,1ec 4f,1ed 6f,1ee 1b7,1ef 292,1f0 6a,1f4 47,1f5 67,1f8 4e,1f9 6e,1fa 41,1fb 61
        1fc c6,1fd e6,1fe d8,1ff f8,200 41,201 61,202 41,203 61,204 45,205 65,206 45,207 65
        208 49,209 69,20a 49,20b 69,20c 4f,20d 6f,20e 4f,20f 6f,210 52,211 72,212 52,213 72
        214 55,215 75,216 55,217 75,218 53,219 73,21a 54,21b 74,21e 48,21f 68,226 41,227 61
        228 45,229 65,22a 4f,22b 6f,22c 4f,22d 6f,22e 4f,22f 6f,230 4f,231 6f,232 59,233 79
        344 308,385 a8,386 391,388 395,389 397,38a 399,38c 39f,38e 3a5,38f 3a9,390 3b9,3aa 399,3ab 3a5
        3ac 3b1,3ad 3b5,3ae 3b7,3af 3b9,3b0 3c5,3ca 3b9,3cb 3c5,3cc 3bf,3cd 3c5,3ce 3c9,3d3 3d2,3d4 3d2
        400 415,401 415,403 413,407 406,40c 41a,40d 418,40e 423,419 418,439 438,450 435,451 435,453 433
        457 456,45c 43a,45d 438,45e 443,476 474,477 475,4c1 416,4c2 436,4d0 410,4d1 430,4d2 410,4d3 430
        4d6 415,4d7 435,4da 4d8,4db 4d9,4dc 416,4dd 436,4de 417,4df 437,4e2 418,4e3 438,4e4 418,4e5 438
        4e6 41e,4e7 43e,4ea 4e8,4eb 4e9,4ec 42d,4ed 44d,4ee 423,4ef 443,4f0 423,4f1 443,4f2 423,4f3 443
        4f4 427,4f5 447,4f8 42b,4f9 44b,1e00 41,1e01 61,1e02 42,1e03 62,1e04 42,1e05 62,1e06 42,1e07 62
        1e08 43,1e09 63,1e0a 44,1e0b 64,1e0c 44,1e0d 64,1e0e 44,1e0f 64,1e10 44,1e11 64,1e12 44,1e13 64
        1e14 45,1e15 65,1e16 45,1e17 65,1e18 45,1e19 65,1e1a 45,1e1b 65,1e1c 45,1e1d 65,1e1e 46,1e1f 66
        1e20 47,1e21 67,1e22 48,1e23 68,1e24 48,1e25 68,1e26 48,1e27 68,1e28 48,1e29 68,1e2a 48,1e2b 68
        1e2c 49,1e2d 69,1e2e 49,1e2f 69,1e30 4b,1e31 6b,1e32 4b,1e33 6b,1e34 4b,1e35 6b,1e36 4c,1e37 6c
        1e38 4c,1e39 6c,1e3a 4c,1e3b 6c,1e3c 4c,1e3d 6c,1e3e 4d,1e3f 6d,1e40 4d,1e41 6d,1e42 4d,1e43 6d
        1e44 4e,1e45 6e,1e46 4e,1e47 6e,1e48 4e,1e49 6e,1e4a 4e,1e4b 6e,1e4c 4f,1e4d 6f,1e4e 4f,1e4f 6f
        1e50 4f,1e51 6f,1e52 4f,1e53 6f,1e54 50,1e55 70,1e56 50,1e57 70,1e58 52,1e59 72,1e5a 52,1e5b 72
        1e5c 52,1e5d 72,1e5e 52,1e5f 72,1e60 53,1e61 73,1e62 53,1e63 73,1e64 53,1e65 73,1e66 53,1e67 73
        1e68 53,1e69 73,1e6a 54,1e6b 74,1e6c 54,1e6d 74,1e6e 54,1e6f 74,1e70 54,1e71 74,1e72 55,1e73 75
        1e74 55,1e75 75,1e76 55,1e77 75,1e78 55,1e79 75,1e7a 55,1e7b 75,1e7c 56,1e7d 76,1e7e 56,1e7f 76
        1e80 57,1e81 77,1e82 57,1e83 77,1e84 57,1e85 77,1e86 57,1e87 77,1e88 57,1e89 77,1e8a 58,1e8b 78
        1e8c 58,1e8d 78,1e8e 59,1e8f 79,1e90 5a,1e91 7a,1e92 5a,1e93 7a,1e94 5a,1e95 7a,1e96 68,1e97 74
        1e98 77,1e99 79,1e9b 17f,1ea0 41,1ea1 61,1ea2 41,1ea3 61,1ea4 41,1ea5 61,1ea6 41,1ea7 61,1ea8 41
        1ea9 61,1eaa 41,1eab 61,1eac 41,1ead 61,1eae 41,1eaf 61,1eb0 41,1eb1 61,1eb2 41,1eb3 61,1eb4 41
        1eb5 61,1eb6 41,1eb7 61,1eb8 45,1eb9 65,1eba 45,1ebb 65,1ebc 45,1ebd 65,1ebe 45,1ebf 65,1ec0 45
        1ec1 65,1ec2 45,1ec3 65,1ec4 45,1ec5 65,1ec6 45,1ec7 65,1ec8 49,1ec9 69,1eca 49,1ecb 69,1ecc 4f
        1ecd 6f,1ece 4f,1ecf 6f,1ed0 4f,1ed1 6f,1ed2 4f,1ed3 6f,1ed4 4f,1ed5 6f,1ed6 4f,1ed7 6f,1ed8 4f
        1ed9 6f,1eda 4f,1edb 6f,1edc 4f,1edd 6f,1ede 4f,1edf 6f,1ee0 4f,1ee1 6f,1ee2 4f,1ee3 6f,1ee4 55
        1ee5 75,1ee6 55,1ee7 75,1ee8 55,1ee9 75,1eea 55,1eeb 75,1eec 55,1eed 75,1eee 55,1eef 75,1ef0 55
        1ef1 75,1ef2 59,1ef3 79,1ef4 59,1ef5 79,1ef6 59,1ef7 79,1ef8 59,1ef9 79,1f00 3b1,1f01 3b1,1f02 3b1
        1f03 3b1,1f04 3b1,1f05 3b1,1f06 3b1,1f07 3b1,1f08 391,1f09 391,1f0a 391,1f0b 391,1f0c 391,1f0d 391,1f0e 391
        1f0f 391,1f10 3b5,1f11 3b5,1f12 3b5,1f13 3b5,1f14 3b5,1f15 3b5,1f18 395,1f19 395,1f1a 395,1f1b 395,1f1c 395
        1f1d 395,1f20 3b7,1f21 3b7,1f22 3b7,1f23 3b7,1f24 3b7,1f25 3b7,1f26 3b7,1f27 3b7,1f28 397,1f29 397,1f2a 397
        1f2b 397,1f2c 397,1f2d 397,1f2e 397,1f2f 397,1f30 3b9,1f31 3b9,1f32 3b9,1f33 3b9,1f34 3b9,1f35 3b9,1f36 3b9
        1f37 3b9,1f38 399,1f39 399,1f3a 399,1f3b 399,1f3c 399,1f3d 399,1f3e 399,1f3f 399,1f40 3bf,1f41 3bf,1f42 3bf
        1f43 3bf,1f44 3bf,1f45 3bf,1f48 39f,1f49 39f,1f4a 39f,1f4b 39f,1f4c 39f,1f4d 39f,1f50 3c5,1f51 3c5,1f52 3c5
        1f53 3c5,1f54 3c5,1f55 3c5,1f56 3c5,1f57 3c5,1f59 3a5,1f5b 3a5,1f5d 3a5,1f5f 3a5,1f60 3c9,1f61 3c9,1f62 3c9
        1f63 3c9,1f64 3c9,1f65 3c9,1f66 3c9,1f67 3c9,1f68 3a9,1f69 3a9,1f6a 3a9,1f6b 3a9,1f6c 3a9,1f6d 3a9,1f6e 3a9
        1f6f 3a9,1f70 3b1,1f71 3b1,1f72 3b5,1f73 3b5,1f74 3b7,1f75 3b7,1f76 3b9,1f77 3b9,1f78 3bf,1f79 3bf,1f7a 3c5
        1f7b 3c5,1f7c 3c9,1f7d 3c9,1f80 3b1,1f81 3b1,1f82 3b1,1f83 3b1,1f84 3b1,1f85 3b1,1f86 3b1,1f87 3b1,1f88 391
        1f89 391,1f8a 391,1f8b 391,1f8c 391,1f8d 391,1f8e 391,1f8f 391,1f90 3b7,1f91 3b7,1f92 3b7,1f93 3b7,1f94 3b7
        1f95 3b7,1f96 3b7,1f97 3b7,1f98 397,1f99 397,1f9a 397,1f9b 397,1f9c 397,1f9d 397,1f9e 397,1f9f 397,1fa0 3c9
        1fa1 3c9,1fa2 3c9,1fa3 3c9,1fa4 3c9,1fa5 3c9,1fa6 3c9,1fa7 3c9,1fa8 3a9,1fa9 3a9,1faa 3a9,1fab 3a9,1fac 3a9
        1fad 3a9,1fae 3a9,1faf 3a9,1fb0 3b1,1fb1 3b1,1fb2 3b1,1fb3 3b1,1fb4 3b1,1fb6 3b1,1fb7 3b1,1fb8 391,1fb9 391
        1fba 391,1fbb 391,1fbc 391,1fc1 a8,1fc2 3b7,1fc3 3b7,1fc4 3b7,1fc6 3b7,1fc7 3b7,1fc8 395,1fc9 395,1fca 397
        1fcb 397,1fcc 397,1fcd 1fbf,1fce 1fbf,1fcf 1fbf,1fd0 3b9,1fd1 3b9,1fd2 3b9,1fd3 3b9,1fd6 3b9,1fd7 3b9,1fd8 399
        1fd9 399,1fda 399,1fdb 399,1fdd 1ffe,1fde 1ffe,1fdf 1ffe,1fe0 3c5,1fe1 3c5,1fe2 3c5,1fe3 3c5,1fe4 3c1,1fe5 3c1
        1fe6 3c5,1fe7 3c5,1fe8 3a5,1fe9 3a5,1fea 3a5,1feb 3a5,1fec 3a1,1fed a8,1fee a8,1ff2 3c9,1ff3 3c9,1ff4 3c9
        1ff6 3c9,1ff7 3c9,1ff8 39f,1ff9 39f,1ffa 3a9,1ffb 3a9,1ffc 3a9,212b 41,219a 2190,219b 2192,21ae 2194,21cd 21d0
        21ce 21d4,21cf 21d2,2204 2203,2209 2208,220c 220b,2224 2223,2226 2225,2241 223c,2244 2243,2247 2245,2249 2248,2260 3d
        2262 2261,226d 224d,226e 3c,226f 3e,2270 2264,2271 2265,2274 2272,2275 2273,2278 2276,2279 2277,2280 227a,2281 227b
        2284 2282,2285 2283,2288 2286,2289 2287,22ac 22a2,22ad 22a8,22ae 22a9,22af 22ab,22e0 227c,22e1 227d,22e2 2291,22e3 2292
        22ea 22b2,22eb 22b3,22ec 22b4,22ed 22b5,2adc 2add
        """
}
