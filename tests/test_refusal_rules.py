"""Every refusal cites the rule that forbids the action (issue 34).

An AST scan of each game's rules package finds every refusal site: each `IllegalAction(rule,
...)`, each call of a helper that takes a `rule` (the engine's `refuse_unknown_args`, a game's
own `knight_arg`, `dice`, `check_in_hand`...), the phase table's rules (`PHASE_RULES`: cited
when someone acts out of turn) and the `GameType`'s. Each rule it finds must be in `QUOTES`,
with a few words of the rulebook at that rule; the test finds those words in the rulebook's
section for that rule (the sections found by their headings: the rulebook's own numbers for
Barletta, Sekigahara and Skirmish, the project's numbering of the Italian chapters for Shogun,
docs/shogun.md, and Rumble Nation, docs/rumble-nation.md). So a new refusal citing a rule
with no quote, or a quote moved to the wrong rule, fails here; the quote is what a reviewer
checks the refusal against.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
"""The rulebooks beside the checkout (`../shared/seeds`, read-only; CI has them too)."""

BOOKS = {"shogun": SEEDS / "shogun-rules-it.txt",
         "barletta": SEEDS / "disfida-di-barletta-rules-it.txt",
         "rumble_nation": SEEDS / "rumble-nation-rules-it.txt",
         "sekigahara": SEEDS / "sekigahara-rules-de-2016-yucata.txt",
         "skirmish": ROOT / "docs" / "skirmish.md"}

PROJECT_RULES = {"referee"}
"""Rules of the companion, not of a rulebook: a referee's correction (Sekigahara)."""

HEADINGS: dict[str, list[tuple[str, str]]] = {
    # The project's numbers for the rulebook's sections (docs/shogun.md), in the text's order;
    # the actions (4.x) are described inside 3.3's planning, which then goes on.
    "shogun": [
        ("1", "l'Oggetto del gioco"), ("2", "Imposta"), ("2.1", "Materiali giocatore"),
        ("2.2", "Rivendicazione Province iniziali"), ("2.3", "La Torre di battaglia"),
        ("2.4", "Carte evento"), ("1", "Gioco"), ("3", "Primavera, Estate, Autunno"),
        ("3.1", "Lay Out Carte Azione"), ("3.2", "Disponi le carte speciali"),
        ("3.3", "Pianifica azioni individuali"), ("4.1", "Costruisci un castello"),
        ("4.2", "Confisca il riso"), ("4.3", "Schierare 5 eserciti"),
        ("4.4", "Battaglia / Mossa-A"), ("3.3", "Se un giocatore non vuole intraprendere"),
        ("3.4", "Determina Eventi"), ("3.5", "Determina l'ordine del turno"),
        ("3.6", "Esegui azioni"), ("5", "Round invernale"),
        ("5.1", "Fornitura di riso alle province"), ("5.2", "Rivolte"), ("5.3", "Punteggio"),
        ("6", "Risoluzione delle battaglie"), ("6.1", "Partecipanti alla battaglia"),
        ("6.2", "Risultati e conseguenze della battaglia"), ("7", "Fine del gioco")],
    # The rulebook's chapters as docs/rumble-nation.md numbers them (5.1.1 is 5.1's ①...).
    "rumble_nation": [
        ("1", "1. Panoramica di Gioco"), ("2", "2. Componenti"),
        ("3", "3. Preparazione della Partita"), ("4", "4. Tabellone della Mappa"),
        ("5", "5. Regole della Partita"), ("5.1", "1. Fase di Schieramento"),
        ("5.1.1", "① Schierare Soldati"), ("5.1.2", "② Usare una Carta Tattica"),
        ("5.1", "❖ Dopo che un giocatore ha collocato"), ("5.2", "11. Fase di Guerra"),
        ("5.2.1", "① Determinare il Vincitore"), ("5.2.2", "② Reclamare Segnalini Castello"),
        ("5.2.3", "③ Inviare Rinforzi"), ("6", "6. Fine della Partita"),
        ("7", "7. Regole Frequentemente Dimenticate"), ("8", "8. Regole Avanzate: Daimyo"),
        ("8.3", "③ Usare una Carta Daimyo")],
}

QUOTES: dict[str, dict[str, str]] = {
    "shogun": {
        "2": "nessun esercito può essere spostato in queste province inutilizzate",
        "2.2": "ognuno sceglie 1 delle 2 carte provincia scoperte o pesca la prima carta",
        "2.3": "Gli eserciti che cadono nel vassoio della torre vengono restituiti",
        "2.4": "Le prime 4 carte evento vengono quindi girate a faccia in su",
        "3": "Ognuno di questi 3 giri si verifica nei seguenti passaggi",
        "3.1": "i primi 5 vengono rivelati 1 alla volta",
        "3.2": "il giocatore può schierare 6 eserciti",
        "3.3": "Nessuno spazio può contenere più di 1 carta",
        "3.4": "Uno viene quindi disegnato e posizionato a faccia in su",
        "3.5": "i giocatori legati mischiano le loro carte Daimyo",
        "3.6": "Ogni azione viene eseguita da tutti i giocatori in ordine di turno",
        "4.3": "almeno 1 esercito deve rimanere indietro",
        "4.4": "Gli eserciti vengono spostati dalla provincia selezionata in una provincia "
               "adiacente",
        "5.2": "Se un giocatore affronta più di 1 rivolta, sceglie l'ordine",
        "6": "alcuni di questi cubi rimarranno nella torre",
        "7": "Il gioco termina dopo il secondo turno invernale",
    },
    "barletta": {
        "C": "In DdB la Giostra dura 5 turni",
        "C1": "I giocatori si alternano nell'attivare un cavaliere della propria Schiera",
        "D1": "uguale al VC di un cavaliere a scelta del proprio schieramento",
        "D1.1": "Attivare un cavaliere costa un Punto Ordine per cavaliere",
        "D2": "I Pass possono essere utilizzati nella propria fase del turno",
        "E": "Ogni cavaliere può ricevere solo un Ordine per turno",
        "E1.1": "Il numero massimo di attacchi che una schiera può fare in un turno è 5",
        "E1.2": "Solo pedoni o cavalieri con dei colpi (CS) possono ricevere questo Ordine",
        "F": "può utilizzare 5 punti movimento (PM) se è a cavallo, 3 PM se è a piedi",
        "F1": "se al cavaliere non sono rimasti PM non può attaccare",
        "F2": "può partire da un esagono del campo o dall'esagono in cui si trova il proprio "
              "scudo",
        "G": "Non può mai esserci più di un cavaliere in un esagono",
        "H": "può effettuare un attacco solo contro un cavaliere che lo ha attaccato",
        "H1": "L'attaccante tira due dadi sulla colonna appropriata",
        "H3.1": "Il giocatore deve tirare un dado e aggiungere al risultato i CS e le ferite",
        "H4.1": "Con un risultato non modificato di uno il cavaliere non si arrende mai",
        "I1": "quello che ottiene il risultato più alto ha l'iniziativa",
        "I2": "solo l'attaccante tira il dado sulla SCT",
        "L": "I giocatori guadagnano Punti Vittoria (VP)",
    },
    "rumble_nation": {
        "3": "Mescolare a faccia in giù i segnalini castello grande",
        "5.1": "Durante il proprio turno, un giocatore deve schierare soldati oppure usare una "
               "carta tattica",
        "5.1.1": "Una volta per turno, può scegliere di ripetere il tiro di tutti e 3 i dadi",
        "5.1.2": "Se il giocatore non può effettuare l'azione di una carta tattica nella sua "
                 "totalità, allora non può scegliere quella carta",
        "6": "Il giocatore con il punteggio maggiore è il vincitore",
        "8": "può scegliere di schierare il daimyo al posto di 1 qualsiasi soldato",
        "8.3": "Il giocatore gira a faccia in su la sua carta daimyo",
    },
    "sekigahara": {
        "2": "Siegbedingungen",
        "3.3": "Karten werden für das Bieten auf die Initiative genutzt",
        "5": "Spielvorbereitung",
        "5.2.2": "Die Zahl gibt die Anzahl Blöcke an, die aus dem Beutel zufällig gezogen "
                 "werden",
        "6.1": "Gliederung eines Zugablaufs",
        "6.2": "Jeder Spieler erhält wie folgt neue Karten und Blöcke",
        "6.3": "indem er eine Handkarte verdeckt auf dem Tisch ablegt",
        "6.4": "Jeder wöchentliche Durchlauf besteht aus den zwei Zügen A und B",
        "7.1": "Die Anzahl Stapel, die bewegt werden dürfen ergibt sich durch die Anzahl "
               "Karten",
        "7.2": "Ein Spieler kann maximal eine Aufstellungsaktion pro Zug durchführen",
        "7.3.1": "Kein Block darf mehr als einmal im gleichen Zug an einer Bewegung teilnehmen",
        "7.3.2": "müssen ihre Bewegung beenden, wenn sie auf feindliche Einheiten treffen",
        "7.3.3": "Blöcke, die einen Gewaltmarsch durchführen, dürfen sich +1 Ort bewegen",
        "7.3.4": "Führungskraft kann ein Anführer, eine Burg oder eine Hauptstadt sein",
        "7.3.5": "wird die Bewegungskapazität eines Blockstapels um eins reduziert",
        "7.4.3": "Feindliche Einheiten, die eine Burg kontrollieren, können nicht überrannt "
                 "werden",
        "8.1": "Kampf muss in jedem Ort auf dem Spielplan erklärt werden",
        "8.2.2": "Keine Karte darf in der gleichen Schlacht zweimal gespielt",
        "8.2.3": "Der aktive Spieler spielt eine Karte offen aus",
        "8.2.4": "Ein Anführer-Block kann ohne das Spielen einer Karte eingesetzt",
        "8.4.2": "Doppelkarten ermöglichen den Einsatz von einem oder zwei Blöcken",
        "8.5": "Die Initiative liegt bei dem Spieler, der die Schlacht verlieren würde",
        "8.6.1": "Falls der herausgeforderte Spieler keine solche Karte vorzeigen kann",
        "8.7.2": "Die Spieler wählen aus, welche ihrer eigenen Blöcke verloren gehen",
        "8.8.1": "Der Verlierer muss seine verbleibenden Kräfte zu einem einzelnen, per Straße "
                 "verbundenen Ort zurückziehen",
        "8.8.2": "Der Angreifer kann sich nie in die Rekrutierungs- oder Mōri-Box zurückziehen",
        "8.8.3": "zu einem Ort zurück, in dem keine feindlichen Einheiten vorhanden sind",
        "8.8.4": "bis zu zwei Einheiten",
        "8.9.2": "entscheidet sich die Seite, die die Burg kontrolliert, ob sie drinnen oder "
                 "außerhalb der Burg sein möchte",
        "8.9.4": "Der verteidigende Spieler kann während der Belagerung weder Karten spielen "
                 "noch Blöcke einsetzen",
        "8.9.5": "Loyalitätskarten können von keiner Seite gespielt werden",
        "8.9.6": "Besieged blocks may not be moved out of the location containing the castle",
        "9.1": "Als solche ist sie die letzte Einheit, die in einer Belagerung der Burg von "
               "Osaka verloren geht",
        "9.3": "Für jede geopferte (abgeworfene) Karte während der Ishida-Bewegungsphase wird "
               "ein Mōri-Block von der Mōri-Box nach Osaka bewegt",
    },
    "skirmish": {
        "S2.1": "On its turn a side either moves one of its own blocks",
        "S3.1": "A block moves along one road to an adjacent location",
        "S4.2": "Chance rolls one die for the attacker and one for the defender",
        "S4.5": "Every block of the losing side in that location is eliminated",
        "S5": "Victory",
    },
}


# --- the scan -----------------------------------------------------------------------------------


def _package(game: str) -> list[Path]:
    return sorted((ROOT / "companion" / "games" / game / "rules").glob("*.py"))


def _rule_helpers(files: list[Path]) -> dict[str, int]:
    """Refusal helpers (name -> the index of their rule argument): `IllegalAction`, the
    engine's `refuse_unknown_args`, and every function of the package that passes its own
    `rule` parameter on to one of them (found until no more are)."""
    helpers = {"refuse_unknown_args": 2, "IllegalAction": 0}
    functions = [node for path in files for node in ast.walk(ast.parse(path.read_text()))
                 if isinstance(node, ast.FunctionDef)
                 and "rule" in [a.arg for a in node.args.args]]
    grown = True
    while grown:
        grown = False
        for function in functions:
            if function.name in helpers:
                continue
            names = [a.arg for a in function.args.args]
            for call in [n for n in ast.walk(function) if isinstance(n, ast.Call)]:
                callee = str(getattr(call.func, "id", None) or getattr(call.func, "attr", ""))
                index = helpers.get(callee)
                if index is None:
                    continue
                arg = call.args[index] if index < len(call.args) else next(
                    (k.value for k in call.keywords if k.arg == "rule"), None)
                if isinstance(arg, ast.Name) and arg.id == "rule":
                    helpers[function.name] = names.index("rule") - (names[:1] == ["self"])
                    grown = True
                    break
    return helpers


def _constants(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level `NAME = value`."""
    found: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value
    return found


def _resolve(expr: ast.expr, names: dict[str, ast.expr], params: set[str], where: str
             ) -> Iterator[str]:
    """The rules a rule expression may be: constants, both sides of an `if`, a name bound to
    those; a parameter (its callers are scanned), a re-raised refusal's `.rule` and the turn
    rule (the phase table, scanned) add nothing."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        yield expr.value
    elif isinstance(expr, ast.IfExp):
        yield from _resolve(expr.body, names, params, where)
        yield from _resolve(expr.orelse, names, params, where)
    elif isinstance(expr, ast.Name) and expr.id in names:
        yield from _resolve(names[expr.id], names, params, where)
    elif isinstance(expr, ast.Dict):  # a table of rules, looked up: every value it holds
        for value in expr.values:
            yield from _resolve(value, names, params, where)
    elif isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) \
            and expr.value.id in names:
        yield from _resolve(names[expr.value.id], names, params, where)
    elif not ((isinstance(expr, ast.Name) and expr.id in params)
              or (isinstance(expr, ast.Attribute) and expr.attr == "rule")
              or (isinstance(expr, ast.Call) and getattr(expr.func, "attr", "") == "turn_rule")):
        raise AssertionError(f"{where}: a refusal's rule the scan cannot read: "
                             f"{ast.unparse(expr)}")


def _locals(function: ast.FunctionDef, returns: dict[str, list[ast.expr]]
            ) -> dict[str, ast.expr]:
    """Names bound in the function: `rule = ...`, and `rule, why = helper(...)` read from
    what the package's `helper` returns in that place."""
    found: dict[str, ast.expr] = {}
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if isinstance(target, ast.Name):
            found[target.id] = node.value
        elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Call):
            callee = getattr(node.value.func, "id", "")
            for index, element in enumerate(target.elts):
                values = [r.elts[index] for r in returns.get(callee, [])
                          if isinstance(r, ast.Tuple) and len(r.elts) > index]
                if isinstance(element, ast.Name) and values:
                    found[element.id] = values[0] if len(values) == 1 else \
                        _either(values)
    return found


def _either(values: list[ast.expr]) -> ast.expr:
    """Several values as one `a if _ else b if _ else c` the resolver reads."""
    out = values[-1]
    for value in reversed(values[:-1]):
        out = ast.IfExp(test=ast.Constant(True), body=value, orelse=out)
    return out


def _returns(files: list[Path]) -> dict[str, list[ast.expr]]:
    """Function name -> the values its `return` statements give, across the package."""
    found: dict[str, list[ast.expr]] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, []).extend(
                    r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value)
    return found


def refusal_rules(game: str) -> dict[str, set[str]]:
    """Rule -> the refusal sites (file:line) citing it, in the game's rules package."""
    files = _package(game)
    helpers = _rule_helpers(files)
    returns = _returns(files)
    cited: dict[str, set[str]] = {}
    for path in files:
        tree = ast.parse(path.read_text())
        module = _constants(tree)
        for name, value in module.items():  # PHASE_RULES, the turn rules by phase
            if name.endswith("RULES") and isinstance(value, ast.Dict):
                for rule in value.values:
                    assert rule is not None
                    for found in _resolve(rule, module, set(), f"{path.name}:{name}"):
                        cited.setdefault(found, set()).add(f"{path.name}:{name}")
        for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            params = {a.arg for a in (*function.args.args, *function.args.kwonlyargs)}
            names = {**module, **_locals(function, returns)}
            for call in [n for n in ast.walk(function) if isinstance(n, ast.Call)]:
                callee = str(getattr(call.func, "id", None) or getattr(call.func, "attr", ""))
                where = f"{path.name}:{call.lineno}"
                if callee not in helpers:
                    continue
                index = helpers[callee]
                arg = next((k.value for k in call.keywords if k.arg == "rule"), None)
                if arg is None and index < len(call.args):
                    arg = call.args[index]
                if arg is None:
                    continue
                for found in _resolve(arg, names, params, where):
                    cited.setdefault(found, set()).add(where)
        for node in ast.walk(tree):  # the GameType's and the phase table's rules
            if not isinstance(node, ast.Call):
                continue
            for keyword in node.keywords:
                if keyword.arg in ("turn_rule", "end_rule", "setup_rule", "default_rule") and \
                        isinstance(keyword.value, ast.Constant) and keyword.value.value:
                    cited.setdefault(str(keyword.value.value), set()).add(
                        f"{path.name}:{node.lineno}")
    return cited


# --- the rulebooks' sections --------------------------------------------------------------------


def _flat(text: str) -> str:
    """One line, one space between words, one kind of apostrophe (the texts mix them), no
    Markdown bold."""
    return re.sub(r"\s+", " ", text.replace("\u2019", "'").replace("**", "")).strip()


NUMBERED = {
    "barletta": re.compile(r"^(?P<rule>[A-M](?:\d+(?:\.\d+)*)?)\.?\s+[A-Z]"),
    "sekigahara": re.compile(r"^(?P<rule>\d+(?:\.\d+)*)\.?\s+\S"),
    "skirmish": re.compile(r"^(?:- \*\*|## )(?P<rule>S\d+(?:\.\d+)*)\b"),
}
"""Rulebooks whose sections begin with their own number."""


def sections(game: str) -> dict[str, str]:
    """Rule -> the rulebook's text under it (several passages joined where a rule's text is
    split), each from its heading to the next heading."""
    lines = BOOKS[game].read_text().splitlines()
    starts: list[tuple[int, str]] = []
    if game in NUMBERED:
        for n, line in enumerate(lines):
            found = NUMBERED[game].match(line)
            if found:
                starts.append((n, found["rule"]))
    else:
        at = 0
        for rule, heading in HEADINGS[game]:
            found_at = next((i for i in range(at, len(lines))
                             if _flat(lines[i]).startswith(heading)), None)
            assert found_at is not None, f"{game}: heading {heading!r} ({rule}) not in order"
            starts.append((found_at, rule))
            at = found_at + 1
    text: dict[str, str] = {}
    for (n, rule), (end, _) in zip(starts, [*starts[1:], (len(lines), "")], strict=True):
        text[rule] = text.get(rule, "") + " " + _flat("\n".join(lines[n:end]))
    return text


GAMES = sorted(QUOTES)


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_cites_a_rule_quoted_from_the_rulebook(game: str) -> None:
    """Each rule a refusal of the game cites has its quote here: a new refusal citing a rule
    nobody has read it against fails until its words are added (from that rule)."""
    cited = refusal_rules(game)
    missing = {rule: sorted(sites) for rule, sites in cited.items()
               if rule not in QUOTES[game] and rule not in PROJECT_RULES}
    assert not missing, f"{game}: refusals citing rules with no quote: {missing}"
    assert cited, game


@pytest.mark.parametrize("game", GAMES)
def test_each_quote_is_the_rulebook_at_its_rule(game: str) -> None:
    """The words quoted for a rule are in the rulebook's text under that rule (and the
    quotes are all still cited: a rule no refusal cites any more is dropped here)."""
    text = sections(game)
    for rule, words in QUOTES[game].items():
        assert rule in text, f"{game}: no section {rule} in {BOOKS[game].name}"
        assert _flat(words) in text[rule], \
            f"{game} {rule}: {words!r} is not in its section: {text[rule][:300]!r}"
    cited = refusal_rules(game)
    stale = sorted(set(QUOTES[game]) - set(cited))
    assert not stale, f"{game}: quotes for rules no refusal cites: {stale}"


def test_the_scan_finds_the_refusals_this_issue_fixed() -> None:
    """The citations issue 34 set right: Shogun's provinces out of play (2), Barletta's
    taken hexes (G) and the enemy's entry hexes (F2)."""
    shogun, barletta = refusal_rules("shogun"), refusal_rules("barletta")
    assert any(site.startswith("actions.py") for site in shogun["2"])
    assert any(site.startswith("orders.py") for site in barletta["G"])
    assert any(site.startswith("orders.py") for site in barletta["F2"])
    assert "3.2" in shogun  # the special cards' choices
