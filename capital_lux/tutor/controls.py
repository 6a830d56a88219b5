"""The learner's decisions as buttons: the hand, the draft, the Agent, the Cleric, the gold.

Which buttons exist and which are enabled comes only from ``view.legal_actions``:
the widgets know no rule. Buttons are kept in pools and reused, so a move sends
few widget messages.
"""

from __future__ import annotations

from typing import Callable

import ipywidgets as W

from ..engine.cards import SYMBOLS, Card
from ..engine.html import BACKGROUNDS
from ..i18n import Translator
from ..engine.notation import CAPITAL, HOME, Action, Destination, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest
from ..engine.views import PlayerView
from ..lessons.table import cards_html
from .text import action_label, colour_text, player_name, special_action

OnAction = Callable[[Action], None]


def _card_label(t: Translator, card: Card) -> str:
    return f"{SYMBOLS[card.colour]} {t.role(card.colour)} {card.value}"


class _Pool:
    """Widgets made on demand and reused; unused ones are hidden."""

    def __init__(self, make: Callable[[int], W.DOMWidget]) -> None:
        self.make = make
        self.items: list[W.DOMWidget] = []
        self.box = W.HBox(layout=W.Layout(flex_flow="row wrap"))

    def take(self, n: int) -> list[W.DOMWidget]:
        while len(self.items) < n:
            self.items.append(self.make(len(self.items)))
            self.box.children = tuple(self.items)
        for i, item in enumerate(self.items):
            item.layout.display = None if i < n else "none"
            if i >= n and item.description:
                item.description = item.tooltip = ""  # nothing stale stays in the page
        return self.items[:n]


class Controls:
    """Everything the learner clicks to decide; ``on_action`` receives a legal action."""

    def __init__(self, on_action: OnAction) -> None:
        self.on_action = on_action
        self.t: Translator | None = None
        self.view: PlayerView | None = None
        self.selected: int | None = None  # index into the hand
        self.chosen: set[int] = set()  # indices into the draft cards
        self._draft_cards: list[Card] = []
        self.prompt = W.HTML()
        self.hand = _Pool(self._make_card_button)
        self.hand.box.add_class("cl-hand")
        self.to_home = W.Button(layout=W.Layout(width="auto"))
        self.to_capital = W.Button(layout=W.Layout(width="auto"))
        self.to_home.add_class("cl-to-home")
        self.to_capital.add_class("cl-to-capital")
        self.to_home.on_click(lambda _: self._play(HOME))
        self.to_capital.on_click(lambda _: self._play(CAPITAL))
        self.destinations = W.HBox([self.to_home, self.to_capital])
        self.draft = _Pool(self._make_toggle)
        self.draft.box.add_class("cl-draft")
        self.confirm_pick = W.Button(button_style="primary", layout=W.Layout(width="auto"))
        self.confirm_pick.add_class("cl-confirm-pick")
        self.confirm_pick.on_click(lambda _: self._pick())
        self.picked = W.HTML()
        self.choices = _Pool(self._make_choice)
        self.choices.box.add_class("cl-choices")
        self._choice_actions: list[Action] = []
        self.box = W.VBox(
            [self.prompt, self.picked, self.draft.box, self.confirm_pick, self.hand.box, self.destinations,
             self.choices.box]
        )
        self.box.add_class("cl-controls")

    # -- widget factories ---------------------------------------------------------------
    def _make_card_button(self, i: int) -> W.Button:
        b = W.Button(layout=W.Layout(width="auto", height="40px", margin="2px"))
        b.add_class("cl-hand-card")
        b.on_click(lambda _, i=i: self._select(i))
        return b

    def _make_toggle(self, i: int) -> W.Button:
        b = W.Button(layout=W.Layout(width="auto", height="40px", margin="2px"))
        b.add_class("cl-draft-card")
        b.on_click(lambda _, i=i: self._toggle(i))
        return b

    def _make_choice(self, i: int) -> W.Button:
        b = W.Button(layout=W.Layout(width="auto", margin="2px"))
        b.add_class("cl-choice")
        b.on_click(lambda _, i=i: self._choose(i))
        return b

    # -- drawing ------------------------------------------------------------------------
    def render(self, t: Translator, v: PlayerView) -> None:
        self.t, self.view = t, v
        legal = v.legal_actions
        plays = [a for a in legal if isinstance(a, Play)]
        picks = [a for a in legal if isinstance(a, Pick)]
        others: list[Action] = [a for a in legal if isinstance(a, (PlaceModifier, TakeLowest, SaveWithGold))]
        self._render_hand(t, v, plays)
        self._render_draft(t, v, picks)
        self._render_choices(t, v, others)
        prompt = ""
        if picks:  # what the draft passes, and to whom (ruling R20: to the next seat)
            giver = player_name(t, (v.viewer - 1) % v.players, v.viewer)
            taker = player_name(t, (v.viewer + 1) % v.players, v.viewer)
            if v.draft_step == 1:
                prompt = t.gettext("The cards you do not pick go to {player}.").format(player=taker)
            else:
                prompt = t.gettext(
                    "These cards came from {giver}: what they did not pick. What you leave goes to {taker}, "
                    "and you keep what {giver} passes you last."
                ).format(giver=giver, taker=taker)
        if v.pending_modifier is not None:
            prompt = t.gettext("You drew the modifier {value}. Only you know it until the round end.").format(
                value=f"{v.pending_modifier:+d}"
            )
        self.prompt.value = f'<div class="cl-note">{prompt}</div>' if prompt else ""

    def _render_hand(self, t: Translator, v: PlayerView, plays: list[Play]) -> None:
        cards = list(v.hand)
        buttons = self.hand.take(len(cards))
        playable = {a.card for a in plays}
        if self.selected is not None and (self.selected >= len(cards) or cards[self.selected] not in playable):
            self.selected = None
        for i, (b, card) in enumerate(zip(buttons, cards)):
            label = _card_label(t, card)
            b.description = ("▶ " + label) if i == self.selected else label
            b.tooltip = t.gettext("{role} {value} ({colour})").format(
                role=t.role(card.colour), value=card.value, colour=t.colour(card.colour)
            )
            b.style.button_color = BACKGROUNDS[card.colour]
            b.style.font_weight = "bold" if i == self.selected else "normal"
            if i == self.selected:
                b.add_class("cl-selected")
            else:
                b.remove_class("cl-selected")
            b.disabled = card not in playable
        show = self.selected is not None
        self.destinations.layout.display = None if show else "none"
        if self.selected is not None:
            card = cards[self.selected]
            self.to_home.description = t.gettext("Into my Hometown")
            self.to_home.tooltip = t.gettext("Worth points at the end, if its colour stays within the limit.")
            self.to_capital.description = t.gettext("Into the Capital: {action}").format(
                action=special_action(t, card.colour)
            )
            self.to_home.disabled = Play(card, HOME) not in plays
            self.to_capital.disabled = Play(card, CAPITAL) not in plays

    def _render_draft(self, t: Translator, v: PlayerView, picks: list[Pick]) -> None:
        cards = list(v.draft_hand) if picks else []
        if cards != self._draft_cards:  # a redraw of the same cards (another player moved) keeps the choice
            self.chosen = set()
        self._draft_cards = cards
        self._label_draft(t)
        self.confirm_pick.layout.display = None if picks else "none"
        need = len(picks[0].cards) if picks else 0
        self.confirm_pick.description = t.ngettext("Set aside the {n} card", "Set aside the {n} cards", need).format(
            n=need
        )
        self.confirm_pick.disabled = True
        if v.draft_picks or (picks and v.draft_hand):
            aside = cards_html(t, v.draft_picks) or "–"
            self.picked.value = (
                f'<div class="cl-note">{t.gettext("Set aside face down:")} {aside}</div>'
                if v.draft_picks else ""
            )
        else:
            self.picked.value = ""
        self._update_confirm()

    def _label_draft(self, t: Translator) -> None:
        toggles = self.draft.take(len(self._draft_cards))
        for i, (b, card) in enumerate(zip(toggles, self._draft_cards)):
            chosen = i in self.chosen
            b.description = ("✔ " if chosen else "") + _card_label(t, card)
            b.tooltip = t.gettext("{role} {value} ({colour})").format(
                role=t.role(card.colour), value=card.value, colour=t.colour(card.colour)
            )
            b.style.button_color = BACKGROUNDS[card.colour]
            b.style.font_weight = "bold" if chosen else "normal"
            if chosen:
                b.add_class("cl-selected")
            else:
                b.remove_class("cl-selected")

    def _toggle(self, i: int) -> None:
        self.chosen ^= {i}
        if self.t is not None:
            self._label_draft(self.t)
        self._update_confirm()

    def _render_choices(self, t: Translator, v: PlayerView, actions: list[Action]) -> None:
        self._choice_actions = actions
        buttons = self.choices.take(len(actions))
        for b, a in zip(buttons, actions):
            if isinstance(a, PlaceModifier):
                b.description = t.gettext("Above {colour}").format(colour=colour_text(t, a.colour))
                b.style.button_color = BACKGROUNDS[a.colour]
            elif isinstance(a, TakeLowest):
                b.description = t.gettext("Take the lowest {colour}").format(colour=colour_text(t, a.colour))
                b.style.button_color = BACKGROUNDS[a.colour]
            else:
                b.description = action_label(t, a)
                b.style.button_color = None
            b.disabled = False

    # -- clicks -------------------------------------------------------------------------
    def _select(self, i: int) -> None:
        self.selected = None if self.selected == i else i
        if self.t is not None and self.view is not None:
            self._render_hand(self.t, self.view, [a for a in self.view.legal_actions if isinstance(a, Play)])

    def _play(self, to: Destination) -> None:
        if self.view is None or self.selected is None:
            return
        card = self.view.hand[self.selected]
        self.selected = None
        self.on_action(Play(card, to))

    def _selected_pick(self) -> Pick | None:
        if self.view is None:
            return None
        cards = [c for i, c in enumerate(self._draft_cards) if i in self.chosen]
        pick = Pick(tuple(sorted(cards)))
        return pick if pick in self.view.legal_actions else None

    def _update_confirm(self) -> None:
        self.confirm_pick.disabled = self._selected_pick() is None

    def _pick(self) -> None:
        pick = self._selected_pick()
        if pick is not None:
            self.on_action(pick)

    def _choose(self, i: int) -> None:
        if i < len(self._choice_actions):
            self.on_action(self._choice_actions[i])

