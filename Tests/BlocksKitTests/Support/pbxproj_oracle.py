#!/usr/bin/env python3
"""An independent check of a project.pbxproj that blocks edited, with PyPI's pbxproj.

    pbxproj_oracle.py BEFORE AFTER TARGET [FILE ...]

FILE paths are relative to the project's folder. Prints "ok", or one line per problem:
- each FILE has a file reference whose group path is FILE, built in TARGET's Sources
  phase and in no other target's;
- every object of BEFORE is in AFTER unchanged, except groups and Sources phases whose
  lists only gained items;
- no Swift file reference outside FILE was added.
"""
import sys
from pbxproj import XcodeProject


def paths(project):
    objects = project.objects
    parents = {}
    for key in objects.get_keys():
        node = objects[key]
        if node.isa in ("PBXGroup", "PBXVariantGroup"):
            for child in node.children:
                parents[child] = key
    root = objects[project.rootObject].mainGroup

    def path_of(key):
        parts = []
        current = key
        while current in objects.get_keys() and current != root:
            node = objects[current]
            if hasattr(node, "path") and node.path:
                parts.insert(0, node.path)
            current = parents.get(current)
        return "/".join(parts)

    return {key: path_of(key) for key in objects.get_keys() if objects[key].isa == "PBXFileReference"}


def built(project, target_name):
    objects = project.objects
    result = {}
    for target in objects.get_targets():
        refs = set()
        for phase_id in target.buildPhases:
            phase = objects[phase_id]
            if phase.isa == "PBXSourcesBuildPhase":
                refs.update(objects[f].fileRef for f in phase.files)
        result[target.name] = refs
    return result


def main():
    before_path, after_path, target, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    before = XcodeProject.load(before_path)
    after = XcodeProject.load(after_path)
    problems = []
    references = paths(after)
    by_path = {}
    for key, path in references.items():
        by_path.setdefault(path, []).append(key)
    membership = built(after, target)
    if target not in membership:
        problems.append("no target %s" % target)
    for file in files:
        keys = by_path.get(file, [])
        if len(keys) != 1:
            problems.append("%s has %d file references" % (file, len(keys)))
            continue
        if keys[0] not in membership.get(target, set()):
            problems.append("%s is not in %s's Sources phase" % (file, target))
        for other, refs in membership.items():
            if other != target and keys[0] in refs:
                problems.append("%s is also built by %s" % (file, other))
    old_keys = set(before.objects.get_keys())
    for key in old_keys:
        if key not in after.objects.get_keys():
            problems.append("object %s is gone" % key)
            continue
        old, new = before.objects[key], after.objects[key]
        if repr(old) == repr(new):
            continue
        if old.isa == "PBXGroup" and set(old.children) <= set(new.children):
            continue
        if old.isa == "PBXSourcesBuildPhase" and set(old.files) <= set(new.files):
            continue
        problems.append("object %s (%s) changed" % (key, old.isa))
    old_paths = set(paths(before).values())
    for path in references.values():
        if path.endswith(".swift") and path not in old_paths and path not in files:
            problems.append("an unexpected reference to %s" % path)
    print("\n".join(problems) if problems else "ok")


if __name__ == "__main__":
    main()
