<?php
/**
 * wikic's expansion oracle: runs MediaWiki's own Parser::preprocess() (what
 * action=expandtemplates does) over many cases in one process.
 * Input on stdin: JSON [{"title": "...", "text": "..."}, ...]; output: JSON list of the
 * expanded texts in the same order. Needs MW_CONFIG_FILE (see scripts/regen-expand-oracle.sh).
 */
require_once ( getenv( 'MW_INSTALL_PATH' ) ?: '/usr/share/mediawiki' ) . '/maintenance/Maintenance.php';

use MediaWiki\MediaWikiServices;

class WikicExpandBatch extends Maintenance {
	public function execute() {
		$cases = json_decode( stream_get_contents( STDIN ), true );
		$factory = MediaWikiServices::getInstance()->getParserFactory();
		$out = [];
		foreach ( $cases as $case ) {
			// A fresh parser per case, so no state (caches, counters) leaks between cases.
			$parser = $factory->create();
			$title = Title::newFromText( $case['title'] );
			$out[] = $parser->preprocess( $case['text'], $title, ParserOptions::newFromAnon() );
		}
		echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";
	}
}

$maintClass = WikicExpandBatch::class;
require_once RUN_MAINTENANCE_IF_MAIN;
