"""Kits: the shipped kits load with the right facts, and a broken copy says where it is broken.

Each broken-kit test copies a shipped kit to tmp_path, breaks ONE thing in the copy and checks
that `load_kit` raises `KitError` with a problem naming the file, the entry, the reason and, where
the break is on one line, that line (found in the text the test wrote, never hard-coded).
"""

import shutil
import subprocess
import sys
from collections import Counter, deque

import pytest
import yaml
from click.testing import CliRunner

from companion.cli import main
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.skirmish.kit import SkirmishKit
from companion.kits import KitError, KitProblem, load_kit, shipped_kits
from companion.kits.loader import shipped_folder

SIDES = ("ishida", "tokugawa")
LAST_LOCATION = "  - {id: sendai, "  # the last line of map.yaml's locations
LAST_ROAD = "  - {a: utsunomiya, b: shirakawa, kind: road}\n"


# --- helpers ---------------------------------------------------------------------------------


def copy_kit(tmp_path, kit="sekigahara"):
    folder = tmp_path / kit
    shutil.copytree(shipped_folder(kit), folder)
    return folder


def replace_once(folder, file, old, new):
    """Replace text that occurs exactly once in `file`, so the break is where the test says."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def broken_copy(tmp_path, file, old, new, kit="sekigahara"):
    """A copy of a shipped kit with one text replacement in one file."""
    folder = copy_kit(tmp_path, kit)
    replace_once(folder, file, old, new)
    return folder


def broken_data(tmp_path, file, change, kit="sekigahara"):
    """A copy of a shipped kit whose `file` is loaded, changed by `change(data)` and dumped."""
    folder = copy_kit(tmp_path, kit)
    path = folder / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return folder


def add_locations(folder, *lines):
    """Append location lines (flow style) after the last location of map.yaml."""
    path = folder / "map.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(LAST_LOCATION)
    end = text.index("\n", start) + 1
    path.write_text(text[:end] + "".join(f"  - {line}\n" for line in lines) + text[end:],
                    encoding="utf-8")


def problems_of(folder):
    with pytest.raises(KitError) as caught:
        load_kit(folder)
    return caught.value.problems


def the_problem(problems, file, entry):
    """The one problem reported for `entry` of `file`."""
    found = [p for p in problems if p.file == file and p.entry == entry]
    listing = "\n".join(str(p) for p in problems)
    assert len(found) == 1, f"expected one problem for {file} {entry}, got:\n{listing}"
    return found[0]


def line_of(folder, file, needle):
    """1-based number of the one line of `file` (as written by the test) containing `needle`."""
    lines = (folder / file).read_text(encoding="utf-8").splitlines()
    hits = [number for number, line in enumerate(lines, 1) if needle in line]
    assert len(hits) == 1, f"{needle!r} is on lines {hits} of {file}"
    return hits[0]


def index_of(folder, file, path, **fields):
    """Index of the one entry of the list at `path` in `file` whose fields match `fields`."""
    items = yaml.safe_load((folder / file).read_text(encoding="utf-8"))
    for key in path:
        items = items[key]
    hits = [i for i, item in enumerate(items) if all(item.get(k) == v for k, v in fields.items())]
    assert len(hits) == 1, f"{fields} matches entries {hits} of {file} {path}"
    return hits[0]


# --- the map graph ---------------------------------------------------------------------------


def test_road_to_unknown_location_is_reported_with_file_line_and_entry(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: kiso, b: suwa,", "{a: kiso, b: sua,")
    index = index_of(folder, "map.yaml", ["roads"], a="kiso", b="sua")
    problem = the_problem(problems_of(folder), "map.yaml", f"roads[{index}].b (kiso-sua)")
    line = line_of(folder, "map.yaml", "{a: kiso, b: sua,")
    assert problem == KitProblem("map.yaml", line, f"roads[{index}].b (kiso-sua)",
                                 "unknown location 'sua'")
    assert str(problem) == f"map.yaml:{line}: roads[{index}].b (kiso-sua): unknown location 'sua'"


def test_duplicate_location_id_is_reported_at_the_second_one(tmp_path):
    folder = copy_kit(tmp_path)
    first = index_of(folder, "map.yaml", ["locations"], id="kyoto")
    add_locations(folder, "{id: kyoto, name: Kyoto Again}")
    index = index_of(folder, "map.yaml", ["locations"], name="Kyoto Again")
    problem = the_problem(problems_of(folder), "map.yaml", f"locations[{index}].id (kyoto)")
    assert problem.reason == f"duplicate id 'kyoto' (first at locations[{first}])"
    assert problem.line == line_of(folder, "map.yaml", "Kyoto Again")


def test_location_without_roads_is_reported(tmp_path):
    folder = copy_kit(tmp_path)
    add_locations(folder, "{id: lonely, name: Lonely}")
    index = index_of(folder, "map.yaml", ["locations"], id="lonely")
    problem = the_problem(problems_of(folder), "map.yaml", f"locations[{index}] (lonely)")
    assert problem.reason == "location 'lonely' has no roads"
    assert problem.line == line_of(folder, "map.yaml", "{id: lonely,")


def test_disconnected_map_is_reported_once_naming_the_cut_off_locations(tmp_path):
    folder = copy_kit(tmp_path)
    add_locations(folder, "{id: isle_a, name: Isle A}", "{id: isle_b, name: Isle B}")
    isle_road = "  - {a: isle_a, b: isle_b, kind: road}\n"
    replace_once(folder, "map.yaml", LAST_ROAD, LAST_ROAD + isle_road)
    problems = problems_of(folder)
    index = index_of(folder, "map.yaml", ["locations"], id="isle_a")
    problem = the_problem(problems, "map.yaml", f"locations[{index}] (isle_a)")
    assert "map is disconnected" in problem.reason
    assert "isle_a, isle_b cannot be reached" in problem.reason
    assert problem.line == line_of(folder, "map.yaml", "{id: isle_a,")
    assert len(problems) == 1, [str(p) for p in problems]


# --- decks and blocks ------------------------------------------------------------------------


def test_deck_of_54_cards_is_reported_for_that_deck(tmp_path):
    mori_plain = "{clan: mori,       kind: plain,   bid: 1, count: 10}"
    folder = broken_copy(tmp_path, "cards.yaml", mori_plain, mori_plain.replace("10", "9"))
    problems = problems_of(folder)
    problem = the_problem(problems, "cards.yaml", "decks.ishida")
    assert problem.reason == "the ishida deck has 54 cards, not 55"
    # A problem with a whole list points at the list's own key.
    assert problem.line == line_of(folder, "cards.yaml", "  ishida:")
    assert not any("tokugawa deck" in p.reason for p in problems)


def test_side_with_49_blocks_is_reported_for_that_side_only(tmp_path):
    def one_more_bag_block(data):
        data["bag_blocks"]["tokugawa"][0]["count"] += 1

    problems = problems_of(broken_data(tmp_path, "blocks.yaml", one_more_bag_block))
    reason = "tokugawa has 49 blocks (14 set-up + 35 bag), not 48 (1)"
    hits = [p for p in problems if p.reason == reason]
    assert len(hits) == 1, [str(p) for p in problems]
    assert hits[0].file == "blocks.yaml"
    assert hits[0].entry == "tokugawa blocks"
    assert hits[0].line is not None
    assert not any("ishida has" in p.reason for p in problems)


def test_setup_marker_wanting_more_blocks_than_exist_is_reported_at_the_marker(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "kind: square, count: 6}", "kind: square, count: 7}")
    osaka = index_of(folder, "map.yaml", ["locations"], id="osaka")
    problem = the_problem(problems_of(folder), "map.yaml", f"locations[{osaka}].setup[0] (osaka)")
    assert "set-up marker for 7 ishida square block(s)" in problem.reason
    assert "blocks.yaml has 6" in problem.reason
    assert problem.line == line_of(folder, "map.yaml", "{id: osaka,")


def test_removed_setup_block_leaves_its_marker_short(tmp_path):
    date_3 = "    - {clan: date,       strength: 3, setup: round, count: 1}\n"
    folder = broken_copy(tmp_path, "blocks.yaml", date_3, "")
    sendai = index_of(folder, "map.yaml", ["locations"], id="sendai")
    problems = problems_of(folder)
    problem = the_problem(problems, "map.yaml", f"locations[{sendai}].setup[0] (sendai)")
    assert "set-up marker for 3 tokugawa round block(s)" in problem.reason
    assert "blocks.yaml has 2" in problem.reason
    assert problem.line == line_of(folder, "map.yaml", "{id: sendai,")
    reason = "tokugawa has 47 blocks (13 set-up + 34 bag), not 48 (1)"
    assert any(p.reason == reason for p in problems)


def test_setup_blocks_beyond_their_marker_are_reported_in_blocks_file(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "kind: square, count: 6}", "kind: square, count: 5}")
    problems = problems_of(folder)
    hits = [p for p in problems if p.file == "blocks.yaml" and "markers for 5" in p.reason]
    assert len(hits) == 1, [str(p) for p in problems]
    assert "6 ishida square set-up block(s)" in hits[0].reason
    assert hits[0].entry == "setup_blocks.ishida[0]"
    assert hits[0].line == line_of(folder, "blocks.yaml", "# Ishida Mitsunari (9.5)")


# --- clans -----------------------------------------------------------------------------------


def test_unknown_clan_on_a_card_is_reported(tmp_path):
    old = "{clan: uesugi,     kind: special"
    folder = broken_copy(tmp_path, "cards.yaml", old, "{clan: uesugy,     kind: special")
    index = index_of(folder, "cards.yaml", ["decks", "ishida"], clan="uesugy")
    problem = the_problem(problems_of(folder), "cards.yaml", f"decks.ishida[{index}].clan")
    assert problem.reason == "unknown clan 'uesugy'"
    assert problem.line == line_of(folder, "cards.yaml", "uesugy")


def test_unknown_clan_on_a_block_is_reported(tmp_path):
    old = "{clan: uesugi,     strength: 3, count: 2}"
    folder = broken_copy(tmp_path, "blocks.yaml", old, old.replace("uesugi", "uesugy"))
    index = index_of(folder, "blocks.yaml", ["bag_blocks", "ishida"], clan="uesugy")
    problem = the_problem(problems_of(folder), "blocks.yaml", f"bag_blocks.ishida[{index}].clan")
    assert problem.reason == "unknown clan 'uesugy'"
    assert problem.line == line_of(folder, "blocks.yaml", "uesugy")


def test_unknown_clan_in_a_location_recruitment_list_is_reported(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "recruitment: [mori, ukita]",
                         "recruitment: [mori, ukitaa]")
    himeji = index_of(folder, "map.yaml", ["locations"], id="himeji")
    entry = f"locations[{himeji}].recruitment[1] (himeji)"
    problem = the_problem(problems_of(folder), "map.yaml", entry)
    assert problem.reason == "unknown clan 'ukitaa'"
    assert problem.line == line_of(folder, "map.yaml", "{id: himeji,")


# --- field types -----------------------------------------------------------------------------


def test_block_strength_three_as_a_word_is_a_bad_type(tmp_path):
    old = "{clan: ukita,      strength: 2, setup: square"
    folder = broken_copy(tmp_path, "blocks.yaml", old, old.replace("2", "three"))
    index = index_of(folder, "blocks.yaml", ["setup_blocks", "ishida"], strength="three")
    entry = f"setup_blocks.ishida[{index}].strength"
    problem = the_problem(problems_of(folder), "blocks.yaml", entry)
    assert "valid integer" in problem.reason
    assert "'three'" in problem.reason
    assert problem.line == line_of(folder, "blocks.yaml", "strength: three")


def test_location_resource_maybe_is_a_bad_type(tmp_path):
    old = "{id: kumano, name: Kumano, xy: [0.1643, 0.5967], resource: false}"
    folder = broken_copy(tmp_path, "map.yaml", old, old.replace("false", "maybe"))
    kumano = index_of(folder, "map.yaml", ["locations"], id="kumano")
    problem = the_problem(problems_of(folder), "map.yaml", f"locations[{kumano}].resource (kumano)")
    assert "valid boolean" in problem.reason
    assert "'maybe'" in problem.reason
    assert problem.line == line_of(folder, "map.yaml", "resource: maybe")


def test_road_kind_river_is_a_bad_type(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: suwa, b: kofu, kind: road}",
                         "{a: suwa, b: kofu, kind: river}")
    index = index_of(folder, "map.yaml", ["roads"], a="suwa", b="kofu")
    problem = the_problem(problems_of(folder), "map.yaml", f"roads[{index}].kind (suwa-kofu)")
    assert "'highway' or 'road'" in problem.reason
    assert "'river'" in problem.reason
    assert problem.line == line_of(folder, "map.yaml", "kind: river")


def test_unknown_extra_field_on_a_road_is_reported_by_name(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: suwa, b: kofu, kind: road}",
                         "{a: suwa, b: kofu, kind: road, colour: red}")
    index = index_of(folder, "map.yaml", ["roads"], a="suwa", b="kofu")
    problem = the_problem(problems_of(folder), "map.yaml", f"roads[{index}].colour (suwa-kofu)")
    assert problem.reason == "unknown field 'colour'"
    assert problem.line == line_of(folder, "map.yaml", "colour: red")


# --- malformed and missing files -------------------------------------------------------------


def test_malformed_yaml_tab_indent_is_reported_with_its_line(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "  - {id: kumano,", "\t- {id: kumano,")
    (problem,) = problems_of(folder)
    assert problem.file == "map.yaml"
    assert problem.line == line_of(folder, "map.yaml", "\t- {id: kumano,")
    assert problem.entry == ""
    assert problem.reason.startswith("malformed YAML")


def test_malformed_yaml_broken_flow_mapping_is_reported_with_its_line(tmp_path):
    old = "{clan: date,      kind: special, bid: 4, count: 4}"
    folder = broken_copy(tmp_path, "cards.yaml", old, old.replace("bid: 4,", "bid: 4:"))
    (problem,) = problems_of(folder)
    assert problem.file == "cards.yaml"
    assert problem.line == line_of(folder, "cards.yaml", "bid: 4: count")
    assert problem.reason.startswith("malformed YAML")
    assert str(problem).startswith(f"cards.yaml:{problem.line}: malformed YAML")


def test_missing_component_file_is_reported_by_name(tmp_path):
    folder = copy_kit(tmp_path)
    (folder / "cards.yaml").unlink()
    assert problems_of(folder) == (
        KitProblem("cards.yaml", None, "", "file is missing from the kit"),
    )


def test_folder_without_kit_yaml_is_reported(tmp_path):
    folder = copy_kit(tmp_path)
    (folder / "kit.yaml").unlink()
    (problem,) = problems_of(folder)
    assert problem.file == "kit.yaml"
    assert problem.reason == f"no kit.yaml in {folder}"


def test_unknown_kit_name_lists_the_shipped_kits(tmp_path):
    (problem,) = problems_of("no_such_kit")
    assert "no such kit folder" in problem.reason
    assert "sekigahara" in problem.reason
    assert "skirmish" in problem.reason


# --- several problems at once ----------------------------------------------------------------


def test_problems_in_three_files_are_all_reported_not_just_the_first(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: kiso, b: suwa,", "{a: kiso, b: sua,")
    replace_once(folder, "cards.yaml", "bid: 1, count: 10}", "bid: 1, count: 9}")
    replace_once(folder, "blocks.yaml", "{clan: uesugi,     strength: 3, count: 2}",
                 "{clan: uesugy,     strength: 3, count: 2}")
    with pytest.raises(KitError) as caught:
        load_kit(folder)
    reasons = {(p.file, p.reason) for p in caught.value.problems}
    assert ("map.yaml", "unknown location 'sua'") in reasons
    assert ("cards.yaml", "the ishida deck has 54 cards, not 55") in reasons
    assert ("blocks.yaml", "unknown clan 'uesugy'") in reasons
    message = str(caught.value)
    assert f"{len(caught.value.problems)} problem(s)" in message
    assert all(str(p) in message for p in caught.value.problems)


def test_bad_types_in_two_files_are_all_reported(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: suwa, b: kofu, kind: road}",
                         "{a: suwa, b: kofu, kind: river}")
    replace_once(folder, "map.yaml", "{id: kumano, name: Kumano, xy: [0.1643, 0.5967], "
                 "resource: false}", "{id: kumano, name: Kumano, resource: maybe}")
    replace_once(folder, "blocks.yaml", "{clan: ukita,      strength: 2, setup: square",
                 "{clan: ukita,      strength: three, setup: square")
    problems = problems_of(folder)
    assert sorted(p.file for p in problems) == ["blocks.yaml", "map.yaml", "map.yaml"], [
        str(p) for p in problems]
    assert {p.line for p in problems if p.file == "map.yaml"} == {
        line_of(folder, "map.yaml", "kind: river"), line_of(folder, "map.yaml", "maybe")}


def test_missing_file_does_not_hide_a_problem_in_another_file(tmp_path):
    folder = broken_copy(tmp_path, "blocks.yaml", "{clan: ukita,      strength: 2, setup: square",
                         "{clan: ukita,      strength: three, setup: square")
    (folder / "cards.yaml").unlink()
    problems = problems_of(folder)
    assert KitProblem("cards.yaml", None, "", "file is missing from the kit") in problems
    assert any(p.file == "blocks.yaml" and "'three'" in p.reason for p in problems)


# --- the shipped kits ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sekigahara():
    return load_kit("sekigahara")


def test_shipped_kits_are_listed_and_load():
    assert {"sekigahara", "skirmish"} <= set(shipped_kits())
    assert isinstance(load_kit("sekigahara"), SekigaharaKit)
    assert isinstance(load_kit("skirmish"), SkirmishKit)


def test_sekigahara_map_has_51_locations_and_62_roads(sekigahara):
    assert len(sekigahara.locations) == 51
    assert len(sekigahara.roads) == 62
    assert Counter(r.kind for r in sekigahara.roads) == {"highway": 19, "road": 43}


def test_sekigahara_castles_resources_and_capitals(sekigahara):
    castles = Counter(loc.castle for loc in sekigahara.locations if loc.castle)
    assert castles == {"ishida": 4, "tokugawa": 5}
    assert sum(loc.resource for loc in sekigahara.locations) == 9
    capitals = {loc.id: loc.capital for loc in sekigahara.locations if loc.capital}
    assert capitals == {"kyoto": "ishida", "edo": "tokugawa"}


def test_sekigahara_map_is_connected(sekigahara):
    start = sekigahara.locations[0].id
    reached, queue = {start}, deque([start])
    while queue:
        for other in sekigahara.neighbours[queue.popleft()]:
            if other not in reached:
                reached.add(other)
                queue.append(other)
    assert reached == {loc.id for loc in sekigahara.locations}


def test_sekigahara_has_55_cards_and_48_blocks_per_side(sekigahara):
    assert Counter(c.side for c in sekigahara.cards) == {side: 55 for side in SIDES}
    assert Counter(b.side for b in sekigahara.blocks) == {side: 48 for side in SIDES}


def test_sekigahara_card_and_block_ids_are_unique(sekigahara):
    assert len({c.id for c in sekigahara.cards}) == len(sekigahara.cards) == 110
    assert len({b.id for b in sekigahara.blocks}) == len(sekigahara.blocks) == 96


def test_sekigahara_has_one_commander_per_side_and_ii_is_strength_4_any_card(sekigahara):
    commanders = Counter(b.side for b in sekigahara.blocks if b.leader == 3)
    assert commanders == {side: 1 for side in SIDES}
    (ii,) = [b for b in sekigahara.blocks if b.clan == "ii"]
    assert ii.strength == 4
    assert ii.any_card is True


def test_sekigahara_every_setup_marker_matches_its_blocks(sekigahara):
    places = [*sekigahara.locations, *sekigahara.boxes]
    markers = Counter()
    for place in places:
        for marker in place.setup:
            if marker.kind != "random":
                markers[(marker.side, marker.kind)] += marker.count
    blocks = Counter((b.side, b.setup) for b in sekigahara.blocks if b.setup)
    assert markers == blocks
    assert markers[("ishida", "square")] == 6


# --- a small map -----------------------------------------------------------------------------

TINY_MAP = """\
locations:
  - {id: red_camp, name: Red Camp}
  - {id: hill, name: Hill}
  - {id: blue_camp, name: Blue Camp}
roads:
  - {a: red_camp, b: hill}
  - {a: hill, b: blue_camp}
"""


def tiny_kit(tmp_path, map_text=TINY_MAP):
    folder = copy_kit(tmp_path, "skirmish")
    (folder / "map.yaml").write_text(map_text, encoding="utf-8")
    return folder


def test_three_location_map_loads(tmp_path):
    kit = load_kit(tiny_kit(tmp_path))
    assert isinstance(kit, SkirmishKit)
    assert [loc.id for loc in kit.locations] == ["red_camp", "hill", "blue_camp"]
    assert kit.neighbours["hill"] == ("blue_camp", "red_camp")
    assert kit.neighbours["red_camp"] == ("hill",)


def test_three_location_map_with_bad_road_reports_its_line(tmp_path):
    folder = tiny_kit(tmp_path, TINY_MAP.replace("{a: hill, b: blue_camp}",
                                                 "{a: hill, b: blue_kamp}"))
    problems = problems_of(folder)
    problem = the_problem(problems, "map.yaml", "roads[1].b (hill-blue_kamp)")
    assert problem.reason == "unknown location 'blue_kamp'"
    assert problem.line == line_of(folder, "map.yaml", "blue_kamp")


# --- the command line ------------------------------------------------------------------------


def test_cli_kit_check_shipped_kit_prints_summary_and_exits_0():
    result = CliRunner().invoke(main, ["kit", "check", "sekigahara"])
    assert result.exit_code == 0, result.output
    assert "OK" in result.stdout
    rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()[1:]}
    assert rows["locations"] == ["51"]
    assert rows["roads"][0] == "62"


def test_cli_kit_check_broken_copy_prints_problem_and_exits_1(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: kiso, b: suwa,", "{a: kiso, b: sua,")
    line = line_of(folder, "map.yaml", "{a: kiso, b: sua,")
    result = CliRunner().invoke(main, ["kit", "check", str(folder)])
    assert result.exit_code == 1
    assert f"map.yaml:{line}: roads[" in result.stderr
    assert "(kiso-sua): unknown location 'sua'" in result.stderr
    assert result.stdout == ""


def test_console_script_kit_check_broken_copy_exits_1_with_problem_on_stderr(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{a: kiso, b: suwa,", "{a: kiso, b: sua,")
    line = line_of(folder, "map.yaml", "{a: kiso, b: sua,")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "kit", "check", str(folder)],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert f"map.yaml:{line}: roads[" in done.stderr
    assert "unknown location 'sua'" in done.stderr
    assert done.stdout == ""


# --- problems found in review ----------------------------------------------------------------


def test_a_repeated_yaml_key_is_reported_not_silently_dropped(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{id: kumano, name: Kumano,",
                         "{id: kumano, id: kumanoo, name: Kumano,")
    kumano = index_of(folder, "map.yaml", ["locations"], id="kumanoo")
    problem = the_problem(problems_of(folder), "map.yaml", f"locations[{kumano}].id (kumanoo)")
    assert problem.reason == "key 'id' appears twice: only the last would count"
    assert problem.line == line_of(folder, "map.yaml", "{id: kumano, id: kumanoo")


def test_a_bad_field_in_one_file_does_not_hide_a_wrong_deck_size_in_another(tmp_path):
    folder = broken_copy(tmp_path, "blocks.yaml", "{clan: ukita,      strength: 2, setup: square",
                         "{clan: ukita,      strength: three, setup: square")
    mori_plain = "{clan: mori,       kind: plain,   bid: 1, count: 10}"
    replace_once(folder, "cards.yaml", mori_plain, mori_plain.replace("10", "9"))
    reasons = [p.reason for p in problems_of(folder)]
    assert "the ishida deck has 54 cards, not 55" in reasons
    assert any("valid integer" in r for r in reasons)


def test_an_unclosed_brace_names_the_line_where_it_was_opened(tmp_path):
    folder = broken_copy(tmp_path, "map.yaml", "{id: tanabe, name: Tanabe, xy: [0.0674, 0.5745], "
                         "resource: false}", "{id: tanabe, name: Tanabe, xy: [0.0674, 0.5745]")
    (problem,) = problems_of(folder)
    assert f"at line {line_of(folder, 'map.yaml', '{id: tanabe')})" in problem.reason


def test_a_shipped_kit_name_is_not_shadowed_by_a_local_folder(tmp_path, monkeypatch):
    (tmp_path / "sekigahara").mkdir()
    monkeypatch.chdir(tmp_path)
    assert load_kit("sekigahara").id == "sekigahara"
    with pytest.raises(KitError, match=r"no kit\.yaml"):
        load_kit("./sekigahara")
