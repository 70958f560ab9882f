#!/usr/bin/env python3
"""Writes a deterministic synthetic catalog of N blocks for benchmarks.

    python3 Scripts/bench/make-catalog.py 10000 /tmp/catalog-10000

The same N always gives the same files, so runs are comparable across machines.
"""
import json
import os
import random
import sys

WORDS_EN = ["tabs", "strip", "pager", "segmented", "underline", "scroll", "badge", "sidebar",
            "carousel", "toolbar", "picker", "menu", "chips", "filter", "stepper", "header",
            "footer", "sheet", "drawer", "rating", "slider", "toggle", "progress", "timeline"]
WORDS_ES = ["pestañas", "tira", "paginador", "segmentado", "subrayado", "desplazar", "insignia",
            "barra lateral", "carrusel", "barra", "selector", "menú", "fichas", "filtro",
            "contador", "cabecera", "pie", "hoja", "cajón", "valoración", "deslizador",
            "interruptor", "progreso", "cronología"]
LEVELS = ["beginner", "intermediate", "advanced"]


def block(index, rng):
    picks = rng.sample(range(len(WORDS_EN)), 6)
    name = f"{WORDS_EN[picks[0]]}-{WORDS_EN[picks[1]]}-{index:05d}"
    type_name = "".join(part.capitalize() for part in name.split("-")[:2]) + f"{index:05d}"
    manifest = {
        "name": name,
        "version": f"1.{index % 7}.0",
        "title": {"en": f"{WORDS_EN[picks[0]].capitalize()} {WORDS_EN[picks[1]]} {index}",
                  "es": f"{WORDS_ES[picks[0]].capitalize()} {WORDS_ES[picks[1]]} {index}"},
        "summary": {"en": f"A {WORDS_EN[picks[2]]} {WORDS_EN[picks[3]]} for SwiftUI apps.",
                    "es": f"Un {WORDS_ES[picks[2]]} {WORDS_ES[picks[3]]} para apps SwiftUI."},
        "category": "tabs",
        "platforms": {"iOS": f"{rng.choice([16, 17, 18, 26, 27])}.0"},
        "level": rng.choice(LEVELS),
        "origin": "Original work",
        "tags": {"en": [WORDS_EN[i] for i in picks], "es": [WORDS_ES[i] for i in picks]},
        "api": [{"name": "selection", "type": "Binding<Int>", "default": None, "description": "The selected index."},
                {"name": f"{WORDS_EN[picks[4]]}Style", "type": "Style", "default": ".automatic", "description": "The look."}],
        "files": [{"path": f"{type_name}.swift", "role": "component"}],
        "authors": ["Benchmark Generator"],
        "license": "MIT",
        "accessibility": {"voiceOver": "Buttons with the selected trait.", "dynamicType": "Scales.", "reduceMotion": "Jumps."},
    }
    body = "import SwiftUI\n\n" + f"public struct {type_name}: View {{\n    public var body: some View {{\n" \
        + "".join(f"        // line {n}: {WORDS_EN[(index + n) % len(WORDS_EN)]}\n" for n in range(40)) \
        + "        Text(\"" + name + "\")\n    }\n}\n"
    return name, manifest, type_name + ".swift", body


def main():
    count = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(20261129)
    os.makedirs(out, exist_ok=True)
    for index in range(count):
        name, manifest, file_name, body = block(index, rng)
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "block.json"), "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, ensure_ascii=False, indent=2)
        with open(os.path.join(folder, file_name), "w", encoding="utf-8") as handle:
            handle.write(body)


if __name__ == "__main__":
    main()
