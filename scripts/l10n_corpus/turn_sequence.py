# Content of corpus/l10n/turn-sequence-multilingual.xml: four tables of the real page
# "Carcassonne Scoring During Turn Sequence" (corpus/wica, restored lines 97-133, 567-587,
# 73-83) made into a Translate source page with fr, cs and nl units. The defects are
# deliberate; corpus/l10n/expected/turn-sequence-multilingual.yaml is their hand count.

TITLE = "Carcassonne Scoring During Turn Sequence"

# The revision last marked for translation. Unit pages and the /fr and /nl translation
# pages were made from this one.
MARKED = """<languages/>
<translate>
== Scoring during the game == <!--T:1-->
</translate>
{| class="wica-table showPhase1_Complete" width="100%"
|-
! colspan="2" | '''<translate><!--T:2--> Round 1A: Begin Turn</translate>'''
|-
| colspan="2" bgcolor="#5C7A1B" style="text-align: left; color: #ffffff;"| <translate><!--T:3--> '''Step 1A: Begin Turn''' <span class="showBuilder">- Only first part of a double turn</span></translate>
|- class="showStep1A_Empty"
| colspan="2" | <span style="color: #666666;"><translate><!--T:4--> There are no particular actions for this step.</translate></span> <!-- Fairy -->
|- class="showFairy"
| align="center" valign="top" width="104" | <div style="padding: 2px;">[[File:Figure_Fairy.png|40px]]</div>
| valign="middle" |
{| width="100%" style="box-sizing:border-box;"
<translate>
<!--T:5-->
|- valign="top"
| width="50%" class="scoringMeeple" | <span>'''Fairy bonus:''' Player with fairy assigned to <span class="showC1">follower</span><span class="showC2">meeple</span></span> <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers"><tvar name=robber>[[File:Figure_Robber_red.png|x25px]]</tvar></span></span></span> || width="50%" | '''1''' point / turn start<br /> <ul class="showAcrobats"> <li>If next to an acrobat, the scoring is applicable to all your acrobats in the pyramid</li> </ul>

<!--T:6-->
{{ScoringRow |selectorid=showHansStatue |scoringtype=Tile |image={{Figure|name=HansStatue|variant=image|size=35px|edition=C1}} |description= Fairy on tile with '''{{Figure|name=HansStatue|text=Hans Statue}}''' |rules= '''×2''' points }}
</translate>
|}<!-- Fairy -->
|}
{| class="wica-table showPhase1_Complete" width="100%"
|-
! colspan="2" | '''<translate><!--T:7--> Round 1B - After drawing tile, before placing tile</translate>'''
|-
| colspan="2" bgcolor="#5C7A1B" style="text-align: left; color: #ffffff;"| '''<translate><!--T:8--> Step 1B: Draw a Tile</translate>'''
<!-- WOF - Fortune -->
|- class="showWheelOfFortune"
| align="center" valign="top" width="104" | <div style="padding: 2px;">[[File:Scoring_C1_WOF_Fortune.png|90px]]</div>
| valign="middle" |
{| width="100%"
<translate>
<!--T:9-->
|- valign="top"
| width="50%" class="scoringFeature" | <span>'''Wheel Of Fortune - Fortune:''' Current player only <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers">[[File:Figure_Robber_red.png|x25px]]</span></span></span></span> || width="50%" | '''3''' points
</translate>
|}
|}
<!-- Road: feature scoring, rows after the core rows -->
{| width="100%" style="border-collapse: initial; padding-left: 10px;"
<translate>
<!--T:10-->
|- class="showInns"
| colspan="2" | <hr />
|- class="showInns" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Inn.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Inn.png|50px|left]]</span> Road with '''inn(s)''' || class="scoringCore" | '''(+1)''' point / tile <span class="showGermanCathedrals"> (except for German cathedral tiles)<br />'''(+1)''' point / road segment on German cathedral tiles</span><br /> <ul> <li>Inns do not stack</li> <li class="showBridges">An inn does not directly affect a wooden bridge placed on the same tile</li> </ul>

<!--T:11-->
{{ScoringRow |selectorid=showWells |scoringtype=Tile |image={{Feature|name=Well|variant=image|size=35px|edition=C1}} |description= Road with '''{{Feature|name=Well|text=well(s)}}''' |rules= '''(+1)''' point / <span class="showC1">'''{{Feature|name=Well|variant=imageandtext|edition=C1|size=x15px|text=well}}'''</span><span class="showC2">'''{{Feature|name=Well|variant=imageandtext|edition=C2|size=x15px|text=well}}'''</span> <span class="showInns">on road without <span class="showC1">'''{{Feature|name=Inn|variant=imageandtext|edition=C1|size=x15px|text=inn}}'''</span><span class="showC2">'''{{Feature|name=Inn|variant=imageandtext|edition=C2|size=x15px|text=inn}}'''</span><br />'''(+2)''' points / <span class="showC1">'''{{Feature|name=Well|variant=imageandimage|edition=C1|size=x15px|text=well}}'''</span><span class="showC2">'''{{Feature|name=Well|variant=imageandtext|edition=C2|size=x15px|text=well}}'''</span> on road with <span class="showC1">'''{{Feature|name=Inn|variant=imageandtext|edition=C1|size=x15px|text=inn}}'''</span><span class="showC2">'''{{Feature|name=Inn|variant=imageandtext|edition=C2|size=x15px|text=inn}}'''</span> }}

<!--T:12-->
|- class="showMage"
| colspan="2" | <hr />
|- class="showMage" valign="top"
| class="scoringTile" | [[File:Figure_Mage.png|30px|left]] Road with '''Mage''' || '''(+1)''' point / actual tile<br/> <ul> <li>This bonus takes into consideration the actual number of tiles of the road</li> <li class="showGermanCathedrals">German cathedrals are counted as one tile</li> </ul>

<!--T:13-->
|- class="showWitch"
| colspan="2" | <hr />
|- class="showWitch" valign="top"
| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Road with '''Witch''' || '''1/2 points''' (rounded up)<br /> <ul> <li>Affects all points obtained from road tiles (previous rows)</li> </ul>
</translate>
|}
{| class="wica-table" width="100%"
|-
! colspan="2" | '''<translate><!--T:14--> Robber</translate>'''
|- class="showRobbers"
| align="center" valign="top" width="104" | <div style="padding: 2px;">[[File:Figure_Robber_red.png|40px]]</div>
| valign="middle" |
<translate>
<!--T:15-->
{| width="100%"
|- valign="top"
| width="50%" class="scoringMeeple" | '''Robber''' beside scoring counting figure || width="50%" | '''1/2''' primary points scored (rounded up)
|}
</translate>
|}
"""

# The latest revision: two edits made after the last marking ("This page contains changes
# which are not marked for translation"). The step 1B note was pasted from step 1A together
# with its marker, so <!--T:4--> now appears twice; the Ghosts row came without a marker.
LATEST_EDITS = [
    ("""| colspan="2" bgcolor="#5C7A1B" style="text-align: left; color: #ffffff;"| '''<translate><!--T:8--> Step 1B: Draw a Tile</translate>'''
""",
     """| colspan="2" bgcolor="#5C7A1B" style="text-align: left; color: #ffffff;"| '''<translate><!--T:8--> Step 1B: Draw a Tile</translate>'''
|- class="showStep1B_Empty"
| colspan="2" | <span style="color: #666666;"><translate><!--T:4--> There are no particular actions for this step.</translate></span>
"""),
    ("""| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Road with '''Witch''' || '''1/2 points''' (rounded up)<br /> <ul> <li>Affects all points obtained from road tiles (previous rows)</li> </ul>
</translate>""",
     """| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Road with '''Witch''' || '''1/2 points''' (rounded up)<br /> <ul> <li>Affects all points obtained from road tiles (previous rows)</li> </ul>

|- class="showGhosts"
| colspan="2" | <hr />
|- class="showGhosts" valign="top"
| class="scoringMeeple" | [[File:Scoring_C3_Ghosts.png|50px|left]] '''Ghosts''' || '''(-2)''' points / ghost added to player's <span class="showC1">followers</span><span class="showC2">meeples</span> on feature<br /> <ul> <li>Penalty only affects '''players with majority'''</li> </ul>
</translate>"""),
]

DISPLAY_TITLE = {
    "fr": "Carcassonne Évaluation pendant la séquence de jeu",
    "cs": "Carcassonne Bodování během tahu",
    # nl: no translation of the title unit
}

UNITS = {
    "fr": {
        "1": "== Décompte pendant la partie ==",
        "2": "Manche 1A : début du tour",
        "3": "'''Étape 1A : début du tour''' <span class=\"showBuilder\">- Seulement la première partie d’un double tour</span>",
        "4": "Il n’y a pas d’action particulière pour cette étape.",
        "5": """|- valign="top"
| width="50%" class="scoringMeeple" | <span>'''Bonus de la fée :''' joueur dont le <span class="showC1">partisan</span><span class="showC2">meeple</span> est accompagné de la fée</span> <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers">$robber</span></span></span> || width="50%" | '''1''' point / début de tour<br /> <ul class="showAcrobats"> <li>Si elle est à côté d’un artiste, le décompte s’applique à tous vos artistes de la pyramide</li> </ul>""",
        "6": """!!FUZZY!!{{ScoringRow |selectorid=showHansStatue |scoringtype=Tile |image={{Figure|name=HansStatue|variant=image|size=35px|edition=C1}} |description= Fée sur la tuile de la '''{{Figure|name=HansStatue|text=statue de Hans}}''' |rules= '''×2''' points }}""",
        "7": "Manche 1B - Après avoir pioché la tuile, avant de la poser",
        "8": "Étape 1B : piocher une tuile",
        "9": """|- valign="top"
| width="50%" class="scoringFeature" | <span>'''Roue de la Fortune - Fortune :''' joueur actif uniquement <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers">[[File:Figure_Robber_red.png|x25px]]</span></span></span></span> || width="50%" | '''2''' points""",
        "10": """|- class="showInns"
| colspan="2" | <hr />
|- class="showInns" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Inn.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Inn.png|50px|left]]</span> Route avec une ou plusieurs '''auberges''' || class="scoringCore" | '''(+1)''' point / tuile <span class="showGermanCathedrals"> (sauf les tuiles Cathédrale d’Allemagne)<br />'''(+1)''' point / section de route sur les tuiles Cathédrale d’Allemagne</span><br /> <ul> <li>Les auberges ne se cumulent pas</li> <li class="showBridges">Une auberge n’affecte pas directement un pont en bois posé sur la même tuile</li> </ul>""",
        "12": """|- class="showMage"
| colspan="2" | <hr />
|- class="showMage" valign="top"
| class="scoringTile" | [[File:Figure_Mage.png|30px|left]] Route avec le '''Mage''' || '''(+1)''' point / tuile réelle<br/> <ul> <li>Ce bonus tient compte du nombre réel de tuiles de la route</li> <li class="showCathedrals">Les cathédrales d’Allemagne comptent pour une tuile</li> </ul>""",
        "13": """|- class="showWitch"
| colspan="2" | <hr />
|- class="showWitch" valign="top"
| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Route avec la '''Sorcière''' | '''1/2 point''' (arrondi à l’entier supérieur)<br /> <ul> <li>Affecte tous les points obtenus à partir des tuiles de route (lignes précédentes)</li> </ul>""",
        "14": "Voleur",
        "15": """{| width="100%"
|- valign="top"
| width="50%" class="scoringMeeple" | '''Voleur''' à côté d’un pion de score qui marque || width="50%" | '''1/2''' des points primaires marqués (arrondi à l’entier supérieur)
|}""",
    },
    "cs": {
        "1": "== Bodování během hry ==",
        "2": "Kolo 1A: Začátek tahu",
        "3": "'''Krok 1A: Začátek tahu''' <span class=\"showBuilder\">- Pouze první část dvojitého tahu</span>",
        "5": """|- valign="top"
| width="50%" class="scoringMeeple" | <span>'''Bonus víly:''' Hráč, jehož <span class="showC1">figurka</span><span class="showC2">figurka</span> je s vílou</span> <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers">$robber</span></span></span> || width="50%" | '''2''' body / začátek tahu<br /> <ul class="showAcrobats"> <li>Je-li vedle akrobata, bodování platí pro všechny vaše akrobaty v pyramidě</li> </ul>""",
        "7": "Kolo 1B - Po tažení kartičky, před jejím přiložením",
        "8": "Krok 1B: Táhni kartičku",
        "9": """|- valign="top"
| width="50%" class="scoringFeature" | <span>'''Kolo štěstí - Štěstí:''' Pouze hráč na tahu <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers">[[File:Figure_Robber_red.png|x25px]]</span></span></span></span> || width="50%" | '''3''' body""",
        "10": """|- class="showInns"
| colspan="2" | <hr />
|- class="showInns" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Inn.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Inn.png|50px|left]]</span> Cesta s '''hostincem (hostinci)''' || class="scoringCore" | '''(+1)''' bod / kartička <span class="showGermanCathedrals"> (kromě kartiček německých katedrál)<br />'''(+1)''' bod / úsek cesty na kartičkách německých katedrál</span><br /> <ul> <li>Hostince se nesčítají</li> <li>Hostinec přímo neovlivňuje dřevěný most položený na stejné kartičce</li> </ul>""",
        "11": """!!FUZZY!!{{ScoringRow |selectorid=showWells |scoringtype=Tile |image={{Feature|name=Well|variant=image|size=35px|edition=C1}} |description= Cesta se '''{{Feature|name=Well|text=studnou (studnami)}}''' |rules= '''(+1)''' bod / <span class="showC1">'''{{Feature|name=Well|variant=imageandtext|edition=C1|size=x15px|text=studna}}'''</span><span class="showC2">'''{{Feature|name=Well|variant=imageandtext|edition=C2|size=x15px|text=studna}}'''</span> <span class="showInns">na cestě bez <span class="showC1">'''{{Feature|name=Inn|variant=imageandtext|edition=C1|size=x15px|text=hostince}}'''</span><span class="showC2">'''{{Feature|name=Inn|variant=imageandtext|edition=C2|size=x15px|text=hostince}}'''</span><br />'''(+2)''' body / <span class="showC1">'''{{Feature|name=Well|variant=imageandimage|edition=C1|size=x15px|text=studna}}'''</span><span class="showC2">'''{{Feature|name=Well|variant=imageandtext|edition=C2|size=x15px|text=studna}}'''</span> na cestě s <span class="showC1">'''{{Feature|name=Inn|variant=imageandtext|edition=C1|size=x15px|text=hostincem}}'''</span><span class="showC2">'''{{Feature|name=Inn|variant=imageandtext|edition=C2|size=x15px|text=hostincem}}'''</span> }}""",
        "12": """|- class="showMage"
| colspan="2" | <hr />
|- class="showMage" valign="top"
| class="scoringTile" | [[File:Figure_Mage.png|30px|left]] Cesta s '''mágem''' || '''(+1)''' bod / skutečná kartička<br/> <ul> <li>Tento bonus bere v úvahu skutečný počet kartiček cesty</li> <li class="showGermanCathedrals">Německé katedrály se počítají jako jedna kartička</li> </ul>""",
        "13": """|- class="showWitch"
| colspan="2" | <hr />
|- class="showWitch" valign="top"
| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Cesta s '''čarodějnicí''' || '''1/2 bodů''' (zaokrouhleno nahoru)<br /> <ul> <li>Ovlivňuje všechny body získané z kartiček cesty (předchozí řádky)</li> </ul>""",
        "14": "Lupič",
        "15": """{| width="100%"
|- valign="top"
| width="50%" class="scoringMeeple" | '''Lupič''' vedle bodující figurky || width="50%" | '''1/2''' získaných primárních bodů (zaokrouhleno nahoru)""",
    },
    "nl": {
        "1": "== Telling tijdens het spel ==",
        "2": "Ronde 1A: Begin van de beurt",
        "3": "'''Stap 1A: Begin van de beurt''' - Alleen het eerste deel van een dubbele beurt",
        "4": "Er zijn geen bijzondere acties voor deze stap.",
        "5": """|- valign="top"
| width="50%" class="scoringMeeple" | <span>'''Feebonus:''' Speler met de fee bij een <span class="showC1">volgeling</span><span class="showC2">horige</span></span> <span class="showRobbers"> → <span class="wica-white-box" style="display: inline-block; height: 27px; padding: 3px 3px;"><span class="showRobbers"></span></span></span> || width="50%" | '''1''' punt / begin van de beurt<br /> <ul class="showAcrobats"> <li>Naast een acrobaat geldt de telling voor al je acrobaten in de piramide</li> </ul>""",
        "6": """{{ScoringRow |selectorid=showHansStatue |scoringtype=Tile |image={{Figure|name=HansStatue|variant=image|size=35px|edition=C1}} |description= Fee op een tegel met het '''{{Figure|name=HansStatue|text=Hansbeeld}}''' |rules= '''×2''' punten }}""",
        "7": "Ronde 1B - Na het trekken van een tegel, voor het leggen",
        "8": "!!FUZZY!!Stap 1B: Trek een tegel",
        "10": """|- class="showInns"
| colspan="2" | <hr />
|- class="showInns" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Inn.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Inn.png|50px|left]]</span> Weg met '''herberg(en)''' || class="scoringCore" | '''(+1)''' punt / tegel <span class="showGermanCathedrals"> (behalve Duitse kathedraaltegels)<br />'''(+1)''' punt / wegdeel op Duitse kathedraaltegels</span><br /> <ul> <li>Herbergen stapelen niet</li> <li class="showBridges">Een herberg heeft geen direct effect op een houten brug op dezelfde tegel</li> </ul>""",
        "11": """{{ScoringRow |selectorid=showWells |scoringtype=Tile |image={{Feature|name=Well|variant=image|size=35px|edition=C1}} |description= Weg met '''waterput(ten)''' |rules= '''(+1)''' punt / <span class="showC1">'''{{Feature|name=Well|variant=imageandtext|edition=C1|size=x15px|text=waterput}}'''</span><span class="showC2">'''{{Feature|name=Well|variant=imageandtext|edition=C2|size=x15px|text=waterput}}'''</span> <span class="showInns">op een weg zonder <span class="showC1">'''{{Feature|name=Inn|variant=imageandtext|edition=C1|size=x15px|text=herberg}}'''</span><span class="showC2">'''{{Feature|name=Inn|variant=imageandtext|edition=C2|size=x15px|text=herberg}}'''</span><br />'''(+2)''' punten / <span class="showC1">'''{{Feature|name=Well|variant=imageandimage|edition=C1|size=x15px|text=waterput}}'''</span><span class="showC2">'''{{Feature|name=Well|variant=imageandtext|edition=C2|size=x15px|text=waterput}}'''</span> op een weg met <span class="showC1">'''{{Feature|name=Inn|variant=imageandtext|edition=C1|size=x15px|text=herberg}}'''</span><span class="showC2">'''{{Feature|name=Inn|variant=imageandtext|edition=C2|size=x15px|text=herberg}}'''</span> }}""",
        "12": """|- class="showMage"
| colspan="2" | <hr />
|- class="showMage" valign="top"
| class="scoringTile" | [[File:Figure_Tovenaar.png|30px|left]] Weg met '''Tovenaar''' || '''(+1)''' punt / werkelijke tegel<br/> <ul> <li>Deze bonus houdt rekening met het werkelijke aantal tegels van de weg</li> <li class="showGermanCathedrals">Duitse kathedralen tellen als één tegel</li> </ul>""",
        "13": """|- class="showWitch"
| colspan="2" | <hr />
|- class="showWitch" valign="top"
| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Weg met '''Heks''' || '''1/2 punten''' (naar boven afgerond)<br /> <ul> <li>Geldt voor alle punten van de wegtegels (vorige rijen)</li> </ul>""",
        "14": "Robber",
        "15": """{| width="100%"
|- valign="top"
| width="50%" class="scoringMeeple" | '''Rover''' naast een scorende telfiguur || width="50%" | '''1/2''' van de gescoorde primaire punten (naar boven afgerond)
|}""",
    },
}

# Languages that have a translation page Page/xx in the export (cs deliberately has none).
TRANSLATION_PAGES = ["fr", "nl"]
