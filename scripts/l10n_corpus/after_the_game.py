# Content of corpus/l10n/scoring-after-the-game.xml: the Translate source page
# "Carcassonne Scoring After the Game" rebuilt from seed 003 (English) and its French units
# rebuilt from seed 002. make-l10n-corpus.py turns this into the export; corpus/l10n/README.md
# says which seed lines each unit reconstructs and which defects are deliberate.

TITLE = "Carcassonne Scoring After the Game"

# Revision of the source page that was last marked for translation (the only one here).
SOURCE = """<languages/>
<translate>
== Expansion selector == <!--T:1-->
</translate>
<div class="showAll" id="_Expansion_Selector_"></div>
<div class="showWhenDone" id="_Tabs_Container_" style="display:none;" data-fixed-edition="{{{1|}}}" data-fan-expansions="true"></div>
<div class="hideWhenDone"><br /><br />'''<translate><!--T:2--> Transmogrifying...</translate>'''<br /><br /></div>
<translate>
== Scoring after the game == <!--T:3-->
</translate>
<div class="hideWhenDone"><br /><br />'''<translate><!--T:4--> Transmogrifying...</translate>'''<br /><br /></div>
<div class="showWhenDone" id="ScoringAfterTheGame" style="display: none;">
{|
|-
| colspan="9" | '''<translate><!--T:5--> Legend:</translate>'''
|-
|
| class="scoringTile" | <translate><!--T:6--> Points from feature tiles</translate> || style="padding-left: 30px;" |
| class="scoringMeeple" | <translate><!--T:7--> Points from figures</translate> || style="padding-left: 30px;" |
| class="scoringFeature" | <translate><!--T:8--> Points from additional features</translate> || style="padding-left: 30px;" |
| class="scoringCoreLegend" | <translate><!--T:9--> Core feature scoring</translate> || style="padding-left: 30px;" |
|}
{| class="wica-table" width="100%"
|-
! colspan="2" | <translate><!--T:10--> Scoring features after the game</translate>
<!-- Road -->
|-
| width="104" align="center" valign="top" | <div style="padding: 2px;" class="showC1_Graphics">[[File:Scoring_C1_Road.jpg|100px]]</div><div style="padding: 2px;" class="showC2_Graphics">[[File:New rules road.png|100px]]</div>
| width="95%" valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:11-->
|- valign="top"
| width="50%" class="scoringTile" | <tvar name=roadimg>[[File:Scoring_C1_Road.jpg|50px|left]]</tvar> <span>'''Road''' (<span class="showC1">thief</span><span class="showC2">highwayman</span>)</span> || width="50%" class="scoringCore" | '''1''' point / tile <span class="showGermanCathedrals">(except for German cathedral tiles)</span> <ul class="showC1"> <li class="showDoubleSizedTiles">A double-sized tile counts as 1 tile</li> <li class="showHalflings">Each triangular tile counts as 1 individual tile</li> <li class="showWondersOfHumanity">A wonder tile counts as 1 individual tile</li> </ul> <ul class="showC2"> <li class="showDoubleSizedTiles">Each half of a double-sized tile counts as a separate regular tile <span class="showMarketsOfLeipzig">(except for the long roads on Leipzig tiles in C2 only)</span></li> <li class="showHalflings">A square space with one or two triangular tiles counts as 1 regular tile</li> <li class="showWondersOfHumanity">Each square space in a wonder tile counts as 1 regular tile</li> </ul>

<!--T:12-->
|- class="showBridges"
| colspan="2" | <hr />
|- class="showBridges" valign="top"
| class="scoringTile" | [[File:Figure_Bridge.png|50px|left]] Tile with '''wooden bridge(s)''' || class="scoringCore" | <ul> <li>The wooden bridge counts as 1 road tile</li> <li>A wooden bridge and a printed road segment on the same tile, both connected to the same road, still count as 1 tile</li> </ul>

<!--T:13-->
|- class="showTunnel"
| colspan="2" | <hr />
|- class="showTunnel" valign="top"
| class="scoringTile" | [[File:Scoring_C1_Tunnel.jpg|50px|left]] Road with '''tunnel(s)''' || class="scoringCore" | <ul> <li>The tunnel tile counts as 1 road tile</li> </ul>

<!--T:14-->
|- class="showLabyrinth"
| colspan="2" | <hr />
|- class="showLabyrinth" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Labyrinth.jpg|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Labyrinth.jpg|50px|left]]</span> Road with '''labyrinth(s)''' || class="scoringCore" | <ul> <li>The labyrinth tile counts as 1 road tile</li> <li>The labyrinth tile merges all roads connected to it for scoring</li> </ul>

<!--T:15-->
|- class="showFerries"
| colspan="2" | <hr />
|- class="showFerries" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Ferries.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Ferries.png|50px|left]]</span> Road with '''ferries''' || class="scoringCore" | <ul> <li>The ferry tile counts as 1 road tile</li> <li>It is irrelevant if the ferry connects two road segments or the road ends at the lake</li> </ul>

<!--T:16-->
|- class="showMarketsOfLeipzig"
| colspan="2" | <hr class="solid" />
|- class="showMarketsOfLeipzig" valign="top"
| class="scoringTile" | [[File:Scoring_C2_Markets_Of_Leipzig.png|50px|left]] Road on '''Leipzig tile''' || class="scoringCore" | <ul> <li class="showC1">The long road on a Leipzig tile counts as 1 road tile</li> <li class="showC2">In C2: The long road on a Leipzig tile counts as 1 road tile</li> <li class="showC2">In C3: The long road on a Leipzig tile counts as 2 road tiles</li> </ul>

<!--T:53-->
|- class="showWondersOfHumanity"
| colspan="2" | <hr class="solid" />
|- class="showWondersOfHumanity" valign="top"
| class="scoringTile" | [[File:Scoring_C3_Wonders_of_Humanity.png|50px|left]] Roads on '''wonder tiles''' || class="scoringCore" | Long roads depending on wonder tile
|- class="showWondersOfHumanity"
| colspan="2" | <hr class="solid"/>
{| width="100%" style="padding-left: 10px;"
|- valign="top"
| class="scoringTile" width="50%" | [[File:Wonders_of_Humanity_C3_Tile_01.png|60px|left]] '''Notre-Dame''' wonder tile
| width="50%" class="scoringCore" | <ul> <li class="showC1">The long forking road counts as 1 road tile</li> <li class="showC2">The long forking road counts as 2 road tiles</li> </ul>
|-
| colspan="2" | <hr class="dotted"/>
|- valign="top"
| class="scoringTile" width="50%" | [[File:Wonders_of_Humanity_C3_Tile_03.png|60px|left]] '''Stonehenge''' wonder tile
| class="scoringCore" | <ul> <li class="showC1">The long forking road counts as 1 road tile</li> <li class="showC2">The long forking road counts as 2 road tiles</li> </ul>
|}

<!--T:17-->
|- class="showGermanCathedrals"
| colspan="2" | <hr />
|- class="showGermanCathedrals" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_German_Cathedral.jpg|50px|left]]</span><span class="showC2">[[File:Scoring_C2_German_Cathedral.png|50px|left]]</span> Road ending at '''German cathedral(s)''' || class="scoringCore" | '''(+0)''' points / tile (except for German cathedral tiles)<br/> '''1''' point / road segment on German cathedral tiles<br/> <ul> <li>German cathedrals do not stack</li> <li>Road segments on German cathedral tiles are counted separately</li> </ul>

<!--T:18-->
|- class="showInns"
| colspan="2" | <hr />
|- class="showInns" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Inn.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Inn.png|50px|left]]</span> Road with '''inn(s)''' || class="scoringCore" | '''(x0)''' points / tile <span class="showGermanCathedrals">(except for German cathedral tiles) '''(x0)''' points / road segment (for German cathedral tiles)</span><br /> <ul> <li>Inns do not stack</li> <li>Uncompleted roads with inn(s) score no points up to this point.</li> <li class="showBridges">An inn does not directly affect a wooden bridge placed on the same tile</li> </ul>

<!--T:19-->
|- class="showMage"
| colspan="2" | <hr />
|- class="showMage" valign="top"
| class="scoringTile" | [[File:Figure_Mage.png|30px|left]] Road with '''Mage''' || '''(+1)''' point / tile<br/> <ul> <li class="showGermanCathedrals">German cathedrals are counted as one tile</li> <li class="showInns">This applies also to uncompleted roads with inn(s)</li> </ul>

<!--T:20-->
|- class="showWitch"
| colspan="2" | <hr />
|- class="showWitch" valign="top"
| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Road with '''Witch''' || '''1/2 points''' (rounded up)<br /> <ul> <li>Affects all points obtained from road tiles (previous rows)</li> </ul>

<!--T:21-->
|- class="showLittleBuildings"
| colspan="2" | <hr />
|- class="showLittleBuildings" valign="top"
| class="scoringFeature" | [[File:Token_LB_House4_C1.png|50px|left]] '''Little building(s)''' on road tiles || <ul> <li>'''Basic rules:''' <ul type="o"> <li>'''(+1)''' point / little building</li> </ul> </li> <li>'''Variant rules:''' <ul type="o"> <li>'''(+1)''' point / shed</li> <li>'''(+2)''' points / house</li> <li>'''(+3)''' points / tower</li> </ul> </li> </ul>

<!--T:22-->
|- class="showSignposts"
| colspan="2" | <hr />
|- class="showSignposts" valign="top"
| class="scoringFeature" | [[File:Signposts_C2_Feature_Arrows_01.png|50px|left]] Road with '''signpost(s)''' || '''(+1)''' point / signpost in correct direction

<!--T:54-->
|- class="showGhosts"
| colspan="2" | <hr />
|- class="showGhosts" valign="top"
| class="scoringMeeple" | [[File:Scoring_C3_Ghosts.png|50px|left]] '''Ghosts''' || '''(-1)''' point / ghost added to player's <span class="showC1">followers</span><span class="showC2">meeples</span> on feature<br /> <ul> <li>Penalty only affects '''players with majority'''</li> <li>Penalty affects the points each player scores for the feature, not the actual value of the feature</li> <li>Players may score '''negative points''' for the feature due to this penalty, but their scoring figure may not go below 0 points</li> </ul>
</translate>
|}
<!-- City -->
|-
| align="center" valign="top" | <div style="padding: 2px;" class="showC1_Graphics">[[File:Scoring_C1_City.jpg|100px]]</div><div style="padding: 2px;" class="showC2_Graphics">[[File:New rules city.png|100px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:23-->
|- valign="top"
| class="scoringTile" rowspan="2" | [[File:Scoring_C1_City.jpg|50px|left]] <span>'''City''' (knight)</span> || class="scoringCore" | '''1''' point / tile
|- valign="top"
| class="scoringCore" | '''1''' point / <span class="showC1">pennant</span><span class="showC2">coat of arms</span> <ul class="showC1"> <li class="showDoubleSizedTiles">A double-sized tile counts as 1 tile (no impact on cities)</li> <li class="showHalflings">Each triangular tile counts as 1 individual tile</li> <li class="showWondersOfHumanity">A wonder tile counts as 1 individual tile</li> </ul> <ul class="showC2"> <li class="showDoubleSizedTiles">Each half of a double-sized tile counts as a separate regular tile (no impact on cities)</li> <li class="showHalflings">A square space with one or two triangular tiles counts as 1 regular tile</li> <li class="showWondersOfHumanity">Each square space in a wonder tile counts as 1 regular tile</li> </ul>

<!--T:55-->
|- class="showWondersOfHumanity"
| colspan="2" | <hr class="solid" />
|- class="showWondersOfHumanity" valign="top"
| class="scoringTile" | [[File:Scoring_C3_Wonders_of_Humanity.png|50px|left]] Cities on '''wonder tiles''' || class="scoringCore" | Large cities depending on wonder tile
|- class="showWondersOfHumanity"
| colspan="2" | <hr class="solid"/>
{| width="100%" style="padding-left: 10px;"
|- valign="top"
| class="scoringTile" width="50%" | [[File:Wonders_of_Humanity_C3_Tile_01.png|60px|left]] '''Notre-Dame''' wonder tile
| width="50%" class="scoringCore" | <ul> <li class="showC1">The large city counts as 1 city tile</li> <li class="showC2">The large city counts as 2 city tiles</li> </ul>
|-
| colspan="2" | <hr class="dotted"/>
|- valign="top"
| class="scoringTile" width="50%" | [[File:Wonders_of_Humanity_C3_Tile_02.png|60px|left]] '''Circus Maximus''' wonder tile
| class="scoringCore" | <ul> <li class="showC1">The large city counts as 1 city tile</li> <li class="showC2">The large city counts as 4 city tiles</li> </ul>
|}

<!--T:56-->
|- class="showCathars"
| colspan="2" | <hr />
|- class="showCathars" valign="top"
| class="scoringTile" rowspan="2" | [[File:Scoring_C1_Cathars.png|50px|left]] City with '''Cathars / Siege / Besiegers''' || class="scoringCore" | '''(-1)''' point / tile
|- class="showCathars"
| class="scoringCore" | '''(-1)''' points / <span class="showC1">pennant</span><span class="showC2">coat of arms</span> <ul> <li>Sieges do not stack</li> <li>Cities under siege score no points up to this point</li> </ul>

<!--T:57-->
|- class="showLittleBuildings"
| colspan="2" | <hr />
|- class="showLittleBuildings" valign="top"
| class="scoringFeature" | [[File:Token_LB_House4_C1.png|50px|left]] '''Little building(s)''' on city tiles || <ul> <li>'''Basic rules:''' <ul type="o"> <li>'''(+1)''' point / little building</li> </ul> </li> <li>'''Variant rules:''' <ul type="o"> <li>'''(+1)''' point / shed</li> <li>'''(+2)''' points / house</li> <li>'''(+3)''' points / tower</li> </ul> </li> </ul>

<!--T:58-->
|- class="showGhosts"
| colspan="2" | <hr />
|- class="showGhosts" valign="top"
| class="scoringMeeple" | [[File:Scoring_C3_Ghosts.png|50px|left]] '''Ghosts''' || '''(-1)''' point / ghost added to player's <span class="showC1">followers</span><span class="showC2">meeples</span> on feature<br /> <ul> <li>Penalty only affects '''players with majority'''</li> <li>Penalty affects the points each player scores for the feature, not the actual value of the feature</li> <li>Players may score '''negative points''' for the feature due to this penalty, but their scoring figure may not go below 0 points</li> </ul>
</translate>
|}
<!-- Cloisters/Monasteries + Abbeys + Shrines + German Monasteries + Darmstadt Churches -->
|-
| align="center" valign="top" | <div style="padding: 2px;" class="showC1_Graphics">[[File:Scoring_C1_Cloister.jpg|100px]]</div><div style="padding: 2px;" class="showC2_Graphics">[[File:New rules monastery.png|100px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:24-->
|- valign="top"
| class="scoringTile" | <span>'''<span class="showC1">Cloister</span><span class="showC2">Monastery</span>''' (monk<span class="showAbbot"> / abbot</span>)</span><span class="showShrines"> or '''Shrine''' (heretic)</span><span class="showAbbey"> or '''Abbey''' (monk)</span><span class="showMonasteries"> or '''German monastery''' (monk) or '''Dutch & Belgian monastery''' (monk) or '''Japanese building''' (monk)</span><span class="showDarmstadt"> or '''Darmstadt church''' (monk)</span> || class="scoringCore" | <span class="showC1">'''1''' point for the feature tile + '''1''' point per tile around it</span><span class="showC2">'''1''' point per tile in the square space with the feature + '''1''' point per tile in the 8 spaces around it</span>

<!--T:25-->
|- class="showVineyards"
| colspan="2" | <hr />
|- class="showVineyards" valign="top"
| class="scoringFeature" | <tvar|vineyard>{{Feature|name=Vineyard|variant=image|size=35px|edition=C1}}</> Neighboring '''{{Feature|name=Vineyard|text=vineyard(s)}}''' || '''(+0)''' points / vineyard

<!--T:59-->
|- class="showGhosts"
| colspan="2" | <hr />
|- class="showGhosts" valign="top"
| class="scoringMeeple" | [[File:Scoring_C3_Ghosts.png|50px|left]] '''Ghosts''' || '''(-1)''' point / ghost added to player's <span class="showC1">followers</span><span class="showC2">meeples</span> on feature<br /> <ul> <li>Penalty only affects '''players with majority'''</li> <li>Penalty affects the points each player scores for the feature, not the actual value of the feature</li> <li>Players may score '''negative points''' for the feature due to this penalty, but their scoring figure may not go below 0 points</li> </ul>

<!--T:26-->
|- class="showShrines"
| colspan="2" | <hr />
|- class="showShrines" valign="top"
| class="scoringFeature" | [[File:Scoring_C1_Shrine.jpg|50px|left]] '''Challenge Resolution''' || If a challenge has not been resolved by the end of the game, both the <span class="showC1">cloister</span><span class="showC2">monastery</span> and the shrine receive the usual '''1''' point / <span class="showC1">tile</span><span class="showC2">occupied space</span>.
</translate>
|}
<!-- Farm -->
|-
| align="center" valign="top" | <div style="padding: 2px;" class="showC1_Graphics">[[File:Scoring_C1_Farm.jpg|100px]]</div><div style="padding: 2px;" class="showC2_Graphics">[[File:New rules field.png|100px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:27-->
|-
| colspan="2" class="scoringTile" | <span>'''<span class="showC1">Farm</span><span class="showC2">Field</span>'''</span>

<!--T:28-->
|- valign="top"
| class="scoringTile" | City adjacent to <span class="showC1">farm</span><span class="showC2">field</span> || class="scoringCore" | '''3''' points / completed city <ul> <li class="showCountOfCarcassonne">The City of Carcassonne counts as a completed city</li> <li class="showCastles">Small cities converted into castles are not counted as completed cities</li> </ul>

<!--T:29-->
|- class="showCastles"
| colspan="2" | <hr />
|- class="showCastles" valign="top"
| class="scoringTile" | Castle adjacent to <span class="showC1">farm</span><span class="showC2">field</span> || class="scoringCore" | '''4''' points / castle

<!--T:30-->
|- class="showPig"
| colspan="2" | <hr />
|- class="showPig" valign="top"
| class="scoringMeeple" | {{Figure|name=Pig|variant=image|size=30px}} <span class="showC1">Farm</span><span class="showC2">Field</span> with '''{{Figure|name=Pig|text=pig}}''' || '''(+1)''' point / castle or completed city
</translate>
|}
<!-- Barn - special case -->
|- class="showCountOfCarcassonneAndBarn"
| align="center" valign="top" | <div style="padding: 2px;">[[File:Scoring_C1_Barn.jpg|100px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:31-->
|-
| colspan="2" class="scoringTile" | <span>'''<span class="showC1">Farm</span><span class="showC2">Field</span> & Barn''' - Special case</span><br /><span class="showC1">Followers</span><span class="showC2">Meeples</span> deployed from the city of Carcassonne to <span class="showC1">farm</span><span class="showC2">field</span> with a barn assuming majority of farmers

<!--T:32-->
|- valign="top"
| class="scoringTile" | City adjacent to <span class="showC1">farm</span><span class="showC2">field</span> || class="scoringCore" | '''1''' point / completed city

<!--T:33-->
|- class="showCastles"
| colspan="2" | <hr />
|- class="showCastles" valign="top"
| class="scoringTile" | Castle adjacent to <span class="showC1">farm</span><span class="showC2">field</span> || class="scoringCore" | '''2''' points / castle
</translate>
|}
|- class="showFigureScoringAfterGame"
! colspan="2" | <translate><!--T:34--> Scoring figures after the game</translate>
<!-- Fairy -->
|- class="showFairy"
| align="center" valign="top" | <div style="padding: 2px;">[[File:Figure_Fairy.png|40px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:35-->
|- valign="top"
| width="50%" class="scoringMeeple" | '''{{Figure|name=Fairy|text=Fairy}}''' || width="50%" | '''3''' points / feature scored <ul> <li class="showCastles">This bonus will not be received by <span class="showC1">followers</span><span class="showC2">meeples</span> in castles, since they are removed before final scoring</li> <li class="showAcrobats">This bonus is not applicable to the acrobats in a pyramid even if the fairy is associated to one of them</li> </ul>
</translate>
|}
|- class="showOtherScoringAfterGame"
! colspan="2" | <translate><!--T:36--> Other scoring after the game</translate>
<!-- Traders -->
|- class="showTraders"
| align="center" valign="top" | <div style="padding: 2px;">[[File:Scoring_C1_Trade_Goods.jpg|100px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:37-->
|- valign="top"
| width="50%" class="scoringFeature" | '''Trade Good Tokens''' || width="50%" | '''10''' points / majority on trade goods
</translate>
|}
<!-- Wonders of Humanity -->
|- class="showWondersOfHumanity"
| align="center" valign="top" rowspan="2" | {{Feature|name=WondersOfHumanity|variant=image|size=100px|text=<translate><!--T:60--> The Wonders of Humanity</translate>}}
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:61-->
|- valign="top"
| width="50%" class="scoringMeeple" | '''The Wonders of Humanity: Circus Maximus''' || width="50%" | Points per knight from other players (not the wonder's owner) <ul> <li>'''4''' points / knight → 2 players</li> <li>'''3''' points / knight → 3-4 players</li> <li>'''2''' points / knight → 5+ players</li> </ul>
</translate>
|}
|- class="showWondersOfHumanity"
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:62-->
|- valign="top"
| width="50%" class="scoringMeeple" | '''The Wonders of Humanity: Alhambra''' || width="50%" | '''4''' points / farmer of the wonder's owner
</translate>
|}
<!-- Easter -->
|- class="showEasterInCarcassonne"
| align="center" valign="top" | <div style="padding: 2px;">[[File:Easter_C3_Egg.png|60px]]</div>
| valign="middle" |
{| width="100%" style="border-collapse: initial;"
<translate>
<!--T:38-->
|- valign="top"
| width="50%" class="scoringFeature" | '''Easter eggs''' || width="50%" | '''10''' points to the player(s) with the most Easter eggs<br /> '''5''' points to the player(s) with the second most Easter eggs <ul> <li>Only remaining uneaten Easter eggs are considered, even if players collected more</li> </ul>
</translate>
|}
|}
</div>
"""

DISPLAY_TITLE_FR = "Carcassonne Évaluation finale"

# French unit pages: unit id -> text as the translator saved it ("!!FUZZY!!" = outdated).
# Variables appear as $name, as Translate shows them to translators.
FR = {
    "1": "== Sélecteur d’extensions ==",
    "2": "Métamorphose...",
    "3": "== Évaluation finale ==",
    "4": "Métamorphose...",
    "5": "Légende :",
    "6": "Points de tuiles",
    "7": "Points de pions",
    "8": "Points de zones additionnelles",
    "9": "Évaluation de zones de base",
    "10": "Évaluation finale des zones",
    # Seed 002: the two wonder-tile lines are missing in the French list.
    "11": """|- valign="top"
| width="50%" class="scoringTile" | $roadimg <span>'''Route''' (<span class="showC1">voleur</span><span class="showC2">brigand</span>)</span> || width="50%" class="scoringCore" | '''1''' point / tuile <span class="showGermanCathedrals">(sauf les tuiles Cathédrale d’Allemagne)</span> <ul class="showC1"> <li class="showDoubleSizedTiles">Une tuile double compte comme une seule tuile</li> <li class="showHalflings">Chaque tuile triangulaire compte pour 1 tuile individuelle</li> </ul> <ul class="showC2"> <li class="showDoubleSizedTiles">Chaque moitié d’une tuile double compte comme une tuile normale distincte <span class="showMarketsOfLeipzig">excepté pour la longue route des tuiles Leipzig</span></li> <li class="showHalflings">Un espace carré comportant une ou deux tuiles triangulaires compte pour 1 tuile régulière</li> </ul>""",
    "12": """|- class="showBridges"
| colspan="2" | <hr />
|- class="showBridges" valign="top"
| class="scoringTile" | [[File:Figure_Bridge.png|50px|left]] Tuile avec un ou plusieurs '''ponts en bois''' || class="scoringCore" | <ul> <li>Le pont en bois compte comme 1 tuile Route</li> <li>Un pont en bois et une section de route imprimée sur une même tuile, tous les deux sont reliés à la même route ne comptent que pour 1 tuile</li> </ul>""",
    "13": """|- class="showTunnel"
| colspan="2" | <hr />
|- class="showTunnel" valign="top"
| class="scoringTile" | [[File:Scoring_C1_Tunnel.jpg|50px|left]] Route avec un ou plusieurs '''tunnels''' || class="scoringCore" | <ul> <li>La tuile Tunnel compte comme 1 tuile Route</li> </ul>""",
    "14": """|- class="showLabyrinth"
| colspan="2" | <hr />
|- class="showLabyrinth" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Labyrinth.jpg|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Labyrinth.jpg|50px|left]]</span> Route avec un ou plusieurs '''labyrinthes''' || class="scoringCore" | <ul> <li>La tuile Labyrinthe compte comme 1 tuile Route</li> <li>La tuile Labyrinthe fusionne toutes les routes qui y sont reliées pour l’évaluation</li> </ul>""",
    "15": """|- class="showFerries"
| colspan="2" | <hr />
|- class="showFerries" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Ferries.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Ferries.png|50px|left]]</span> Route avec un ou plusieurs '''<span class="showC1">ferrys</span><span class="showC2">bacs</span>''' || class="scoringCore" | <ul> <li>La tuile <span class="showC1">Ferry</span><span class="showC2">Bac</span> compte comme 1 tuile Route</li> <li>Il est indifférent que le <span class="showC1">ferry</span><span class="showC2">bac</span> relie deux segments de route ou que la route se termine au lac</li> </ul>""",
    # Seed 002 keeps one line only: the C1 line survives without its class, the C2/C3 lines are gone.
    "16": """|- class="showMarketsOfLeipzig"
| colspan="2" | <hr class="solid" />
|- class="showMarketsOfLeipzig" valign="top"
| class="scoringTile" | [[File:Scoring_C2_Markets_Of_Leipzig.png|50px|left]] Route sur une '''tuile Leipzig''' || class="scoringCore" | <ul> <li>La longue route sur une tuile Leipzig compte pour une tuile Route</li> </ul>""",
    "17": """|- class="showGermanCathedrals"
| colspan="2" | <hr />
|- class="showGermanCathedrals" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_German_Cathedral.jpg|50px|left]]</span><span class="showC2">[[File:Scoring_C2_German_Cathedral.png|50px|left]]</span> Route se terminant sur une ou plusieurs '''Cathédrale d’Allemagne''' || class="scoringCore" | '''(+0)''' points / tuile (sauf pour les tuiles Cathédrale d’Allemagne)<br/> '''1''' point / section de route sur les tuiles Cathédrale d’Allemagne<br/> <ul> <li>Les tuiles Cathédrale d’Allemagne ne se cumulent pas</li> <li>Les sections de route sur les tuiles Cathédrale d’Allemagne sont comptées séparément</li> </ul>""",
    "18": """|- class="showInns"
| colspan="2" | <hr />
|- class="showInns" valign="top"
| class="scoringTile" | <span class="showC1">[[File:Scoring_C1_Inn.png|50px|left]]</span><span class="showC2">[[File:Scoring_C2_Inn.png|50px|left]]</span> Route avec une ou plusieurs '''auberges au lac''' || class="scoringCore" | '''(x0)''' points / tuile <span class="showGermanCathedrals">(sauf pour les tuiles Cathédrale d’Allemagne) '''(x0)''' points / section de route (pour les tuiles Cathédrale d’Allemagne)</span><br /> <ul> <li>Les auberges au lac ne sont pas cumulables</li> <li>Les routes incomplètes avec une ou plusieurs auberges au lac ne rapportent pas de points à ce stade</li> <li class="showBridges">Une auberge au lac n’affecte pas directement un pont en bois construit sur la même tuile</li> </ul>""",
    "19": """|- class="showMage"
| colspan="2" | <hr />
|- class="showMage" valign="top"
| class="scoringTile" | [[File:Figure_Mage.png|30px|left]] Route avec '''Mage''' || '''(+1)''' point / tuile<br/> <ul> <li class="showGermanCathedrals">Les cathédrales d’Allemagne sont comptées comme une tuile</li> <li class="showInns">Cela s’applique également aux routes non terminées avec une ou plusieurs auberges au lac</li> </ul>""",
    "20": """|- class="showWitch"
| colspan="2" | <hr />
|- class="showWitch" valign="top"
| class="scoringTile" | [[File:Figure_Witch.png|30px|left]] Route avec '''Sorcière''' || '''1/2 point''' (arrondis à l’entier supérieur)<br /> <ul> <li>Affecte tous les points obtenus à partir des tuiles de route (rangées précédentes)</li> </ul>""",
    "21": """|- class="showLittleBuildings"
| colspan="2" | <hr />
|- class="showLittleBuildings" valign="top"
| class="scoringFeature" | [[File:Token_LB_House4_C1.png|50px|left]] '''Petits bâtiments''' sur des tuiles Route || <ul> <li>'''Règles de base :''' <ul type="o"> <li>'''(+1)''' point / Petit bâtiment</li> </ul> </li> <li>'''Règles des variantes :''' <ul type="o"> <li>'''(+1)''' point / étable</li> <li>'''(+2)''' points / maison</li> <li>'''(+3)''' points / tour</li> </ul> </li> </ul>""",
    # Outdated translation of the unit as it was before the Ghosts row (T:54) was added after it:
    # that version still ended the road table, so the French text closes the table a second time.
    "22": """!!FUZZY!!|- class="showSignposts"
| colspan="2" | <hr />
|- class="showSignposts" valign="top"
| class="scoringFeature" | [[File:Signposts_C2_Feature_Arrows_01.png|50px|left]] Routes avec un ou plusieurs '''panneaux d’indication''' || '''(+1)''' point / panneau d’indication dans la bonne direction
|}""",
    # Outdated translation of the City unit from before it was split: it still holds the rows
    # that are now units T:56 and T:57, in French, and it still closes the city table.
    "23": """!!FUZZY!!|- valign="top"
| class="scoringTile" rowspan="2" | [[File:Scoring_C1_City.jpg|50px|left]] <span>'''Ville''' (chevalier)</span> || class="scoringCore" | '''1''' point / tuile
|- valign="top"
| class="scoringCore" | '''1''' point / <span class="showC1">bouclier</span><span class="showC2">blason</span> <ul class="showC1"> <li class="showDoubleSizedTiles">Une tuile double compte pour 1 tuile (pas d’impact sur les villes).</li> <li class="showHalflings">Chaque tuile triangulaire compte pour 1 tuile individuelle.</li> </ul> <ul class="showC2"> <li class="showDoubleSizedTiles">Chaque moitié d’une tuile double compte comme une tuile normale distincte (aucun impact sur les villes).</li> <li class="showHalflings">Un espace carré comportant une ou deux tuiles triangulaires compte pour 1 tuile régulière.</li> </ul>
|- class="showCathars"
| colspan="2" | <hr />
|- class="showCathars" valign="top"
| class="scoringTile" rowspan="2" | [[File:Scoring_C1_Cathars.png|50px|left]] City with '''Cathars / Siege / Besiegers''' || class="scoringCore" | '''(-1)''' point / tile
|- class="showCathars"
| class="scoringCore" | '''(-1)''' point / <span class="showC1">bouclier</span><span class="showC2">blason</span> <ul> <li>Les sièges ne se cumulent pas</li> <li>Les villes assiégées ne marquent aucun point à ce moment-là</li> </ul>
|- class="showLittleBuildings"
| colspan="2" | <hr />
|- class="showLittleBuildings" valign="top"
| class="scoringFeature" | [[File:Token_LB_House4_C1.png|50px|left]] '''Petits bâtiments''' sur des tuiles Ville || <ul> <li>'''Règles de base :''' <ul type="o"> <li>'''(+1)''' point / Petit bâtiment</li> </ul> </li> <li>'''Règles des variantes :''' <ul type="o"> <li>'''(+1)''' point / étable</li> <li>'''(+2)''' points / maison</li> <li>'''(+3)''' points / tour</li> </ul> </li> </ul>
|}""",
    "24": """|- valign="top"
| class="scoringTile" | <span>'''<span class="showC1">Abbaye</span><span class="showC2">Abbaye</span>''' (moine<span class="showAbbot"> / abbé</span>)</span><span class="showShrines"> ou '''Lieu de culte''' (hérétique)</span><span class="showAbbey"> ou '''Monastère''' (moine)</span><span class="showMonasteries"> ou '''Abbaye d’Allemagne''' (moine) ou '''Abbaye de Hollande et de Belgique''' (moine) ou '''Monument japonais''' (moine)</span><span class="showDarmstadt"> ou '''Église de Darmstadt''' (moine)</span> || class="scoringCore" | <span class="showC1">'''1''' point pour la tuile comportant le bâtiment monastique + '''1''' point par tuile autour d'elle</span><span class="showC2">'''1''' point pour la tuile comportant le bâtiment monastique + '''1''' point par tuile dans les 8 espaces autour d'elle</span>""",
    "25": """|- class="showVineyards"
| colspan="2" | <hr />
|- class="showVineyards" valign="top"
| class="scoringFeature" | $vineyard Voisin de '''{{Feature|name=Vineyard|text=vignoble(s)}}''' || '''(+0)''' points / vignoble""",
    "26": """|- class="showShrines"
| colspan="2" | <hr />
|- class="showShrines" valign="top"
| class="scoringFeature" | [[File:Scoring_C1_Shrine.jpg|50px|left]] '''Résolution du défi''' || Si un défi n'a pas été résolu lorsque la partie se termine, les deux <span class="showC1">abbaye</span><span class="showC2">abbaye</span> et le lieu de culte reçoivent, comme d'habitude, '''1''' point / <span class="showC1">tuile</span><span class="showC2">espace occupé</span>.""",
    "27": """|-
| colspan="2" class="scoringTile" | <span>'''<span class="showC1">Pré</span><span class="showC2">Pré</span>'''</span>""",
    "28": """|- valign="top"
| class="scoringTile" | Ville adjacente au <span class="showC1">pré</span><span class="showC2">pré</span> || class="scoringCore" | '''3''' points / ville complète <ul> <li class="showCountOfCarcassonne">La Ville de Carcassonne compte comme une ville complète</li> <li class="showCastles">Les petites villes converties en forteresses ne comptent pas comme des villes complètes</li> </ul>""",
    "29": """|- class="showCastles"
| colspan="2" | <hr />
|- class="showCastles" valign="top"
| class="scoringTile" | Forteresse adjacente au <span class="showC1">pré</span><span class="showC2">pré</span> || class="scoringCore" | '''4''' points / forteresse""",
    "30": """|- class="showPig"
| colspan="2" | <hr />
|- class="showPig" valign="top"
| class="scoringMeeple" | {{Figure|name=Pig|variant=image|size=30px}} <span class="showC1">Pré</span><span class="showC2">Pré</span> avec '''{{Figure|name=Pig|text=cochon}}''' || '''(+1)''' point / forteresse ou ville complète""",
    "31": """|-
| colspan="2" class="scoringTile" | <span>'''<span class="showC1">Pré</span><span class="showC2">Pré</span> & Grange''' - Cas particulier</span><br />Les <span class="showC1">partisans</span><span class="showC2">meeples</span> déployés depuis la Ville de Carcassonne vers un <span class="showC1">pré</span><span class="showC2">pré</span> avec une grange en supposant qu'il s'y trouve une majorité parmi les paysans""",
    "32": """|- valign="top"
| class="scoringTile" | Ville adjacente au <span class="showC1">pré</span><span class="showC2">pré</span> || class="scoringCore" | '''1''' point / ville complète""",
    # Seed 002: "Forteresse adjacente au prépré | 4 points / forteresse" where English has 2.
    "33": """|- class="showCastles"
| colspan="2" | <hr />
|- class="showCastles" valign="top"
| class="scoringTile" | Forteresse adjacente au <span class="showC1">pré</span><span class="showC2">pré</span> || class="scoringCore" | '''4''' points / forteresse""",
    "34": "Évaluation des zones en fin de partie",
    # Seed 002 lacks the castle line; with it went its showCastles class.
    "35": """|- valign="top"
| width="50%" class="scoringMeeple" | '''{{Figure|name=Fairy|text=Fée}}''' || width="50%" | '''3''' points / zone évaluée <ul> <li class="showAcrobats">Ce bonus n'est pas applicable aux artistes dans une pyramide même si la fée est associée à l'un d'entre eux</li> </ul>""",
    "36": "Autres évaluations finales",
    "37": """|- valign="top"
| width="50%" class="scoringFeature" | '''Jetons Marchandise''' || width="50%" | '''10''' points / marchandise majoritaire ou à égalité""",
    "38": """|- valign="top"
| width="50%" class="scoringFeature" | '''Œufs de Pâques''' || width="50%" | '''10''' points pour le(s) joueur(s) ayant le plus d'Œufs de Pâques.<br /> '''5''' points pour le(s) joueur(s) ayant le deuxième plus grand nombre d'Œufs de Pâques. <ul> <li>Seuls les œufs de Pâques non mangés sont pris en compte, même si les joueurs ont collecté plus</li> </ul>""",
}
